public import ReactorCore

/// The search screen, rendered as text: the search field, the results and a "loading more"
/// footer.
public final class GitHubSearchView: TextView {
  /// The view's reactor and bindings.
  public let binding = ViewBinding<GitHubSearchReactor>()
  /// The search field's text.
  public private(set) var searchText = ""
  /// The result rows.
  public private(set) var rows: [String] = []
  /// Whether the "loading more" footer is visible.
  public private(set) var isFooterVisible = false

  /// An empty view; assign ``reactor`` to bind it.
  public init() {}

  /// Binds the field, the rows and the footer.
  public func bind(reactor: GitHubSearchReactor) {
    reactor.state.map(\.query).removeDuplicates()
      .observe { [weak self] in self?.searchText = $0 }
      .store(in: subscriptions)
    reactor.state.map(\.repos).removeDuplicates()
      .observe { [weak self] in self?.rows = $0 }
      .store(in: subscriptions)
    reactor.state.map(\.isLoadingNextPage).removeDuplicates()
      .observe { [weak self] in self?.isFooterVisible = $0 }
      .store(in: subscriptions)
  }

  /// The user typed in the search field.
  public func type(_ text: String) { reactor?.send(.updateQuery(text)) }

  /// The user scrolled to the bottom of the results.
  public func scrollToBottom() { reactor?.send(.loadNextPage) }

  /// The screen as text: `search "reactor": 6 results (octo/reactor-1, …)`, with `(loading more)`.
  public var text: String {
    var text = "search \"\(searchText)\": \(rows.count) result\(rows.count == 1 ? "" : "s")"
    if let first = rows.first { text += " (\(first)\(rows.count > 1 ? ", …" : ""))" }
    if isFooterVisible { text += " (loading more)" }
    return text
  }
}
