public import ReactorCore

/// ReactorKit's GitHubSearch example: search as you type, with stale requests cancelled and
/// more results loaded at the bottom of the list.
///
/// A new query cancels the search or next-page load still in flight, so results never arrive
/// for an old query. `loadNextPage` does nothing while a page is loading
/// (`isLoadingNextPage`) or when there is no next page. A failed request shows no results.
public final class GitHubSearchReactor: Reactor {
  /// What the user can do.
  public enum Action: Codable, Equatable, Sendable {
    /// The search field's text changed.
    case updateQuery(String)
    /// The list was scrolled to the bottom.
    case loadNextPage
  }

  /// The smallest changes of the state.
  public enum Mutation: Codable, Equatable, Sendable {
    /// The query changed; the next page is unknown until its results arrive.
    case setQuery(String)
    /// The first page of results for the query.
    case setRepos([String], nextPage: Int?)
    /// A further page of results.
    case appendRepos([String], nextPage: Int?)
    /// Whether a further page is loading.
    case setLoadingNextPage(Bool)
  }

  /// What the view shows.
  public struct State: Codable, Equatable, Sendable {
    /// The search field's text.
    public var query = ""
    /// The results so far.
    public var repos: [String] = []
    /// The page `loadNextPage` loads, or `nil` when there is none.
    public var nextPage: Int?
    /// Whether a further page is loading.
    public var isLoadingNextPage = false

    /// A state; the defaults are those of an empty search.
    public init(
      query: String = "", repos: [String] = [], nextPage: Int? = nil,
      isLoadingNextPage: Bool = false
    ) {
      self.query = query
      self.repos = repos
      self.nextPage = nextPage
      self.isLoadingNextPage = isLoadingNextPage
    }
  }

  /// Where the search starts.
  public let initialState = State()
  /// The reactor's pipeline.
  public let runtime = Runtime()
  private let service: any GitHubSearchService

  /// A search through `service`.
  public init(service: any GitHubSearchService) {
    self.service = service
  }

  /// Turns an action into a search, cancelling the one in flight.
  public func mutate(action: Action) -> Effect<Mutation> {
    let service = self.service
    switch action {
    case .updateQuery(let query):
      return .concat(
        .just(.setQuery(query)),
        .run(id: SearchID(), cancelInFlight: true, name: "search") { send in
          let page = await Self.search(service, query: query, page: 1)
          send(.setRepos(page.repos, nextPage: page.nextPage))
        })
    case .loadNextPage:
      let state = currentState
      guard !state.isLoadingNextPage, let next = state.nextPage else { return .none }
      return .concat(
        .just(.setLoadingNextPage(true)),
        .run(id: SearchID(), name: "next page") { send in
          let page = await Self.search(service, query: state.query, page: next)
          send(.appendRepos(page.repos, nextPage: page.nextPage))
        },
        .just(.setLoadingNextPage(false)))
    }
  }

  /// Applies a mutation.
  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setQuery(let query):
      state.query = query
      state.nextPage = nil
    case .setRepos(let repos, let nextPage):
      state.repos = repos
      state.nextPage = nextPage
    case .appendRepos(let repos, let nextPage):
      state.repos += repos
      state.nextPage = nextPage
    case .setLoadingNextPage(let isLoading): state.isLoadingNextPage = isLoading
    }
    return state
  }

  /// Identifies the one search or next-page load that may run at a time.
  private struct SearchID: Hashable, Sendable {}

  /// The page, or no results when the query is empty or the request failed.
  private static func search(
    _ service: any GitHubSearchService, query: String, page: Int
  ) async -> SearchPage {
    guard !query.isEmpty else { return SearchPage(repos: [], nextPage: nil) }
    do {
      return try await service.search(query: query, page: page)
    } catch {
      return SearchPage(repos: [], nextPage: nil)
    }
  }
}
