/// A search service for tests, replays and demos: every request takes `latency` on the
/// injected clock and answers from a made-up, deterministic catalogue.
///
/// Each query has `resultCount` repositories, `octo/<query>-1` onwards, in pages of
/// `pageSize`. A query containing `!` fails with HTTP 403, as a rate-limited request would.
public struct FakeGitHubSearchService: GitHubSearchService {
  private let clock: any Clock<Duration>
  private let latency: Duration
  private let pageSize: Int
  private let resultCount: Int

  /// A fake service.
  /// - Parameters:
  ///   - clock: The clock the latency is spent on.
  ///   - latency: How long each request takes.
  ///   - pageSize: Results per page.
  ///   - resultCount: Results per query.
  public init(
    clock: any Clock<Duration>, latency: Duration = .milliseconds(300), pageSize: Int = 3,
    resultCount: Int = 8
  ) {
    self.clock = clock
    self.latency = latency
    self.pageSize = max(1, pageSize)
    self.resultCount = max(0, resultCount)
  }

  /// Answers after the latency.
  public func search(query: String, page: Int) async throws -> SearchPage {
    try await clock.sleep(for: latency)
    guard !query.contains("!") else {
      throw GitHubSearchError(status: 403, message: "API rate limit exceeded")
    }
    let first = (page - 1) * pageSize + 1
    let last = min(first + pageSize - 1, resultCount)
    guard page >= 1, first <= last else { return SearchPage(repos: [], nextPage: nil) }
    let slug = query.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
      .joined(separator: "-")
    return SearchPage(
      repos: (first...last).map { "octo/\(slug)-\($0)" },
      nextPage: last < resultCount ? page + 1 : nil)
  }
}
