/// A user as the profile screen shows it.
public struct User: Codable, Equatable, Sendable {
  /// The user's identifier.
  public var id: Int
  /// The name shown on the profile.
  public var name: String
  /// How many people follow the user.
  public var followers: Int

  /// A user.
  public init(id: Int, name: String, followers: Int) {
    self.id = id
    self.name = name
    self.followers = followers
  }
}
