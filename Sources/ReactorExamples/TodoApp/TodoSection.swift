/// A section of the todo list: its rows, each a ``TodoCellReactor``.
public struct TodoSection: Codable, Sendable {
  /// The section's title.
  public var header: String
  /// Its rows, in order.
  public var items: [TodoCellReactor]

  /// A section.
  public init(header: String, items: [TodoCellReactor]) {
    self.header = header
    self.items = items
  }
}
