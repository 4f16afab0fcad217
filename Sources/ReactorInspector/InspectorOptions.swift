/// What an ``InspectorPage`` holds and how it draws the transitions diagram.
public struct InspectorOptions: Sendable, Hashable {
  /// The most events the page holds.
  ///
  /// A longer trace is cut after this many, and the page says so. 1,000,000 unless set.
  public var maximumEvents: Int
  /// Dotted fields the diagram's states are projected onto, as `render transitions --key`;
  /// empty for whole states.
  public var keys: [String]

  /// Creates options.
  ///
  /// - Parameters:
  ///   - maximumEvents: The most events the page holds.
  ///   - keys: Fields the diagram's states are projected onto.
  public init(maximumEvents: Int = 1_000_000, keys: [String] = []) {
    self.maximumEvents = maximumEvents
    self.keys = keys
  }
}
