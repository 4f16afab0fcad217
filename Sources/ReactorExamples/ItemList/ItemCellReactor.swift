public import ReactorCore

/// The reactor of one cell of ``ItemListReactor``'s list: it only holds the item it shows,
/// so it has no actions (``NoAction``) and keeps the default `mutate` and `reduce`.
public final class ItemCellReactor: Reactor {
  /// A cell cannot be acted on.
  public typealias Action = NoAction
  /// What the cell shows.
  public typealias State = ListItem

  /// The item.
  public let initialState: State
  /// The runtime.
  public let runtime = Runtime()

  /// The reactor of a cell showing `item`.
  public init(item: ListItem) {
    initialState = item
  }
}
