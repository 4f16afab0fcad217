import Synchronization

/// A user API for tests, replays and demos: every request takes `latency` on the injected
/// clock, and the requests whose numbers are in `failing` fail.
///
/// Requests are numbered from 1 in the order they start, so a script can say "the third
/// request fails" and get the same failure on every run.
public final class FakeUserAPI: UserAPI {
  /// The user every ``user(id:)`` request returns, with the given identifier.
  public let user: User
  private let clock: any Clock<Duration>
  private let latency: Duration
  private let failing: Set<Int>
  private let requests = Mutex(0)

  /// A fake API.
  /// - Parameters:
  ///   - user: The user returned by ``user(id:)``.
  ///   - clock: The clock the latency is spent on.
  ///   - latency: How long each request takes.
  ///   - failing: The numbers of the requests that fail, counted from 1.
  public init(
    user: User = User(id: 1, name: "devxoul", followers: 100),
    clock: any Clock<Duration>, latency: Duration = .milliseconds(300), failing: Set<Int> = []
  ) {
    self.user = user
    self.clock = clock
    self.latency = latency
    self.failing = failing
  }

  /// The number of requests started so far.
  public var requestCount: Int { requests.withLock { $0 } }

  /// Returns ``user`` with `id` after the latency.
  public func user(id: Int) async throws -> User {
    try await respond()
    var user = self.user
    user.id = id
    return user
  }

  /// Succeeds after the latency unless this request is set to fail.
  public func follow(userID: Int) async throws { try await respond() }

  /// Succeeds after the latency unless this request is set to fail.
  public func unfollow(userID: Int) async throws { try await respond() }

  private func respond() async throws {
    let request = requests.withLock { count in
      count += 1
      return count
    }
    try await clock.sleep(for: latency)
    if failing.contains(request) {
      throw UserAPIError(request: request, reason: "the server is unavailable")
    }
  }
}
