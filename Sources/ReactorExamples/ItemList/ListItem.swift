/// An item of ``ItemListReactor``'s list.
public struct ListItem: Codable, Equatable, Hashable, Sendable {
  /// The item's identity in the store.
  public var id: Int
  /// What the cell shows.
  public var title: String
  /// Whether the item is checked.
  public var isChecked = false

  /// An item.
  public init(id: Int, title: String, isChecked: Bool = false) {
    self.id = id
    self.title = title
    self.isChecked = isChecked
  }
}

/// A section of ``ItemListReactor``'s list: a header and the states of its cells.
public struct ItemSection: Codable, Equatable, Sendable {
  /// The section's header.
  public var header: String
  /// The items, one cell each.
  public var items: [ListItem]

  /// A section.
  public init(header: String, items: [ListItem]) {
    self.header = header
    self.items = items
  }
}
