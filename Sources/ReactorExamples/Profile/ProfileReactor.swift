public import ReactorCore

/// The profile screen of seed 001: shows a user and follows or unfollows them through a
/// ``UserAPI``.
///
/// Each request sets `isRequesting` while it runs. A failed follow falls back to "not
/// following", a failed unfollow to "following" (the seed's `catchErrorJustReturn`), and the
/// error is shown once through the `errorMessage` pulse. A newer follow or unfollow cancels
/// the one still in flight, so the last tap wins.
public final class ProfileReactor: Reactor {
  /// What the user can do.
  public enum Action: Codable, Equatable, Sendable {
    /// Loads the user.
    case refresh
    /// Follows the user.
    case follow
    /// Stops following the user.
    case unfollow
  }

  /// The smallest changes of the state.
  public enum Mutation: Codable, Equatable, Sendable {
    /// The user arrived.
    case setUser(User)
    /// Whether the viewer follows the user.
    case setFollowing(Bool)
    /// Whether a request is running.
    case setRequesting(Bool)
    /// A request failed with this message.
    case setError(String)
  }

  /// What the view shows.
  public struct State: Codable, Equatable, Sendable {
    /// The user, once loaded.
    public var user: User?
    /// Whether the viewer follows the user.
    public var isFollowing = false
    /// Whether a request is running.
    public var isRequesting = false
    /// The last error, shown once per assignment.
    @Pulse public var errorMessage: String?

    /// A state; the defaults are those of a profile that has not loaded yet.
    public init(
      user: User? = nil, isFollowing: Bool = false, isRequesting: Bool = false,
      errorMessage: String? = nil
    ) {
      self.user = user
      self.isFollowing = isFollowing
      self.isRequesting = isRequesting
      self._errorMessage = Pulse(wrappedValue: errorMessage)
    }
  }

  /// Where the profile starts.
  public let initialState = State()
  /// The reactor's pipeline.
  public let runtime = Runtime()
  private let api: any UserAPI
  private let userID: Int

  /// The profile of `userID`, loaded and followed through `api`.
  public init(userID: Int = 1, api: any UserAPI) {
    self.userID = userID
    self.api = api
  }

  /// Turns an action into requests and the mutations they end in.
  public func mutate(action: Action) -> Effect<Mutation> {
    let (api, userID) = (self.api, self.userID)
    switch action {
    case .refresh:
      return .run(id: "load", cancelInFlight: true, name: "load user") { send in
        do {
          send(.setUser(try await api.user(id: userID)))
        } catch  where !(error is CancellationError) {
          send(.setError("Could not load the profile: \(error)"))
        }
      }
    case .follow:
      return setFollowing(true) { try await api.follow(userID: userID) }
    case .unfollow:
      return setFollowing(false) { try await api.unfollow(userID: userID) }
    }
  }

  /// Applies a mutation.
  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setUser(let user): state.user = user
    case .setFollowing(let isFollowing): state.isFollowing = isFollowing
    case .setRequesting(let isRequesting): state.isRequesting = isRequesting
    case .setError(let message): state.errorMessage = message
    }
    return state
  }

  /// A follow or unfollow request: shows `isRequesting` while it runs, cancels the one still
  /// in flight, and on failure falls back to the opposite of `isFollowing`.
  private func setFollowing(
    _ isFollowing: Bool, request: @escaping @MainActor @Sendable () async throws -> Void
  ) -> Effect<Mutation> {
    .run(id: "follow", cancelInFlight: true, name: isFollowing ? "follow" : "unfollow") { send in
      send(.setRequesting(true))
      do {
        try await request()
        send(.setFollowing(isFollowing))
      } catch is CancellationError {
        return
      } catch {
        send(.setFollowing(!isFollowing))
        send(.setError("Could not \(isFollowing ? "follow" : "unfollow"): \(error)"))
      }
      send(.setRequesting(false))
    }
  }
}
