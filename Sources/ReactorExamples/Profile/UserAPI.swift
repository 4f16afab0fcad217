/// The user service the profile screen talks to (seed 001's `UserService`).
public protocol UserAPI: Sendable {
  /// Loads a user.
  /// - Parameter id: The user's identifier.
  /// - Returns: The user.
  /// - Throws: When the request fails.
  func user(id: Int) async throws -> User
  /// Follows a user.
  /// - Parameter userID: The user to follow.
  /// - Throws: When the request fails.
  func follow(userID: Int) async throws
  /// Stops following a user.
  /// - Parameter userID: The user to unfollow.
  /// - Throws: When the request fails.
  func unfollow(userID: Int) async throws
}

/// Why a ``UserAPI`` request failed.
public struct UserAPIError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The request's number, counted from 1 over the API's lifetime.
  public var request: Int
  /// What went wrong.
  public var reason: String

  /// An error.
  public init(request: Int, reason: String) {
    self.request = request
    self.reason = reason
  }

  /// `request 3 failed: the server is unavailable`.
  public var description: String { "request \(request) failed: \(reason)" }
}
