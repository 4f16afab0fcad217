public import ReactorCore

/// A like button as ReactorKit apps write it: its action calls the service and returns no
/// mutation; the change comes back through the service's app-wide event stream
/// (``PostService/events``), which the button merges in `transform(mutation:)`, so that
/// every button of the post agrees.
///
/// Its mutations all arrive through the stream. Those whose element its own effect
/// published are credited to the action that started it (`"publishedBy"` in the trace's
/// cause), those another screen published to the stream.
public final class LikeButtonReactor: Reactor {
  /// What the user can do.
  public enum Action: Codable, Equatable, Sendable {
    /// Likes the post.
    case like
    /// Takes the like back.
    case unlike
  }

  /// The smallest changes of the state.
  public enum Mutation: Codable, Equatable, Sendable {
    /// Shows the post as liked or not.
    case setLiked(Bool)
  }

  /// What the button shows.
  public struct State: Codable, Equatable, Sendable {
    /// Whether the post is liked.
    public var isLiked = false
  }

  /// Not liked.
  public let initialState = State()
  /// The runtime.
  public let runtime = Runtime()
  /// The post's id.
  public let post: Int
  private let service: PostService

  /// The button of post `post`.
  public init(post: Int, service: PostService) {
    self.post = post
    self.service = service
  }

  /// Asks the service; the change comes back through its events.
  public func mutate(action: Action) -> Effect<Mutation> {
    let isLiked = action == .like
    return .run(name: "setLiked") { [service, post] _ in
      try await service.setLiked(isLiked, post: post)
    }
  }

  /// Merges the service's events about this post.
  public func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
    mutation.merge(
      service.events.flow(name: "PostService.events").compactMap { [post] event in
        switch event {
        case .likeChanged(let changed, let isLiked): changed == post ? .setLiked(isLiked) : nil
        }
      })
  }

  /// Applies a mutation.
  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setLiked(let isLiked): state.isLiked = isLiked
    }
    return state
  }
}
