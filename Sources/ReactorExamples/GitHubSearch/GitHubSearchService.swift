/// Searches GitHub's repositories (the `search/repositories` endpoint of ReactorKit's
/// GitHubSearch example).
public protocol GitHubSearchService: Sendable {
  /// Searches for `query`.
  /// - Parameters:
  ///   - query: What to search for; never empty.
  ///   - page: The page, from 1.
  /// - Returns: The page of results.
  /// - Throws: When the request fails.
  func search(query: String, page: Int) async throws -> SearchPage
}

/// Why a search failed.
public struct GitHubSearchError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The HTTP status the server answered with.
  public var status: Int
  /// The server's message.
  public var message: String

  /// An error.
  public init(status: Int, message: String) {
    self.status = status
    self.message = message
  }

  /// `HTTP 403: API rate limit exceeded`.
  public var description: String { "HTTP \(status): \(message)" }
}
