public import Foundation
public import ReactorCore

/// A reader's bookmarks: the page it shows and the pages it kept, as `URL`s in its action,
/// its mutations and its state.
///
/// Traces record each `URL` as its absolute string (`"https://example.com/a"`), as
/// Foundation's `JSONEncoder` writes it, so scripts and `--path-to` conditions spell URLs the
/// way users do.
public final class BookmarkReactor: Reactor {
  /// What the user can do.
  public enum Action: Codable, Equatable, Sendable {
    /// Shows the page at the URL.
    case open(URL)
    /// Keeps the page shown, if any and not kept yet.
    case bookmark
    /// Forgets the kept pages.
    case clear
  }

  /// The smallest changes of the state.
  public enum Mutation: Codable, Equatable, Sendable {
    /// Shows a page.
    case setCurrent(URL)
    /// Keeps a page.
    case addBookmark(URL)
    /// Forgets the kept pages.
    case removeAll
  }

  /// What the view shows.
  public struct State: Codable, Equatable, Sendable {
    /// The page shown, if any.
    public var current: URL?
    /// The pages kept, oldest first.
    public var bookmarks: [URL]

    /// A state; the defaults are those of a reader that has shown nothing.
    public init(current: URL? = nil, bookmarks: [URL] = []) {
      self.current = current
      self.bookmarks = bookmarks
    }
  }

  /// Where the reader starts.
  public let initialState = State()
  /// The reactor's pipeline.
  public let runtime = Runtime()

  /// A reader that has shown nothing.
  public init() {}

  /// Turns an action into mutations.
  public func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .open(let url):
      return .just(.setCurrent(url))
    case .bookmark:
      guard let url = currentState.current, !currentState.bookmarks.contains(url) else {
        return .none
      }
      return .just(.addBookmark(url))
    case .clear:
      return .just(.removeAll)
    }
  }

  /// Applies a mutation.
  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setCurrent(let url): state.current = url
    case .addBookmark(let url): state.bookmarks.append(url)
    case .removeAll: state.bookmarks.removeAll()
    }
    return state
  }
}
