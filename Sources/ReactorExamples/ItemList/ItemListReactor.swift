public import Foundation
public import ReactorCore

/// A list screen as ReactorKit apps write it: sections of cell reactors, actions that name a
/// cell by its `IndexPath`, and items that other screens add through a shared
/// ``ItemStore``'s event stream.
///
/// Like the code it is modelled on, it indexes its sections with the index paths it is sent
/// and trusts them: an index path that names no cell traps (`Index out of range`). The
/// command-line tool's tests use that to check that a trap in a user's reactor is reported
/// with the script or event that caused it.
public final class ItemListReactor: Reactor {
  /// What the user can do.
  public enum Action: Codable, Equatable, Sendable {
    /// Loads the sections.
    case load
    /// Checks or unchecks the item at an index path.
    case toggle(IndexPath)
    /// Removes the item at an index path.
    case delete(IndexPath)
    /// Shows only the items whose titles contain the text; `nil` shows every item.
    case setFilter(String?)
  }

  /// The smallest changes of the state.
  public enum Mutation: Codable, Equatable, Sendable {
    /// Replaces the sections.
    case setSections([ItemSection])
    /// Checks or unchecks the item at an index path.
    case toggle(IndexPath)
    /// Removes the item at an index path.
    case delete(IndexPath)
    /// Appends an item another screen added.
    case append(ListItem, section: Int)
    /// Sets the filter.
    case setFilter(String?)
  }

  /// What the screen shows.
  public struct State: Codable, Equatable, Sendable {
    /// The sections, each with its items.
    public var sections: [ItemSection] = []
    /// The filter, if any.
    public var filter: String?
  }

  /// No sections, no filter.
  public let initialState = State()
  /// The runtime.
  public let runtime = Runtime()
  private let store: ItemStore

  /// A list over `store`.
  public init(store: ItemStore) {
    self.store = store
  }

  /// The reactor of the cell at `indexPath`, for the view's data source.
  public func cellReactor(at indexPath: IndexPath) -> ItemCellReactor {
    ItemCellReactor(item: currentState.sections[indexPath.section].items[indexPath.item])
  }

  /// Turns an action into mutations.
  public func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .load:
      return .run { [store] send in send(.setSections(try await store.fetchSections())) }
    case .toggle(let indexPath):
      return .just(.toggle(indexPath))
    case .delete(let indexPath):
      return .just(.delete(indexPath))
    case .setFilter(let filter):
      return .just(.setFilter(filter))
    }
  }

  /// Merges the store's events: items added on other screens.
  public func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
    mutation.merge(
      store.events.flow(name: "ItemStore.events").map { event in
        switch event {
        case .added(let item, let section): .append(item, section: section)
        }
      })
  }

  /// Applies a mutation.
  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setSections(let sections):
      state.sections = sections
    case .toggle(let indexPath):
      state.sections[indexPath.section].items[indexPath.item].isChecked.toggle()
    case .delete(let indexPath):
      state.sections[indexPath.section].items.remove(at: indexPath.item)
    case .append(let item, let section):
      state.sections[section].items.append(item)
    case .setFilter(let filter):
      state.filter = filter
    }
    return state
  }
}

#if !canImport(UIKit)
extension IndexPath {
  /// The section, as UIKit names the first index.
  fileprivate var section: Int { self[0] }
  /// The item, as UIKit names the second index.
  fileprivate var item: Int { self[1] }
}
#endif
