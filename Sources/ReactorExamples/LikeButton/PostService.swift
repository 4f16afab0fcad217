public import ReactorCore

/// The posts every screen of a feed app shares, with ReactorKit apps' global event stream:
/// a like made anywhere (a feed row, a post's own screen) is published on ``events``, and
/// every like button of that post merges them.
@MainActor
public final class PostService {
  /// What changed about a post.
  public enum Event: Codable, Equatable, Sendable {
    /// The post with id `post` is now liked, or no longer.
    case likeChanged(post: Int, isLiked: Bool)
  }

  /// The changes, delivered synchronously to every button that merged them.
  public let events = Relay<Event>()
  private let clock: any Clock<Duration>
  private let latency: Duration

  /// A service whose requests take `latency` on `clock`.
  public init(clock: any Clock<Duration>, latency: Duration = .milliseconds(100)) {
    self.clock = clock
    self.latency = latency
  }

  /// Likes or unlikes a post and, once the server answered (after the latency), publishes
  /// the change to every screen.
  /// - Parameters:
  ///   - isLiked: Whether the post is liked now.
  ///   - post: The post's id.
  /// - Throws: `CancellationError` when cancelled while waiting.
  public func setLiked(_ isLiked: Bool, post: Int) async throws {
    try await clock.sleep(for: latency)
    events.accept(.likeChanged(post: post, isLiked: isLiked))
  }

  /// Publishes `event`, as another screen does when the user likes the post there.
  public func apply(_ event: Event) {
    events.accept(event)
  }
}
