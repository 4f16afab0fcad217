/// A named property that every state of a reactor must have, checked in every state an
/// exploration reaches.
///
/// ```swift
/// let invariant = ExplorationInvariant<CounterReactor.State>("value within limit") {
///   $0.value <= 10
/// }
/// ```
public struct ExplorationInvariant<State>: Sendable {
  /// The name reports use.
  public var name: String
  /// Whether a state has the property.
  public var holds: @Sendable (State) -> Bool

  /// An invariant named `name`.
  public init(_ name: String, holds: @escaping @Sendable (State) -> Bool) {
    self.name = name
    self.holds = holds
  }
}
