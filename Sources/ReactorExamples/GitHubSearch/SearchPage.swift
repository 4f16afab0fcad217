/// One page of search results.
public struct SearchPage: Codable, Equatable, Sendable {
  /// The repositories on this page, `owner/name`.
  public var repos: [String]
  /// The next page's number, or `nil` on the last page.
  public var nextPage: Int?

  /// A page.
  public init(repos: [String], nextPage: Int?) {
    self.repos = repos
    self.nextPage = nextPage
  }
}
