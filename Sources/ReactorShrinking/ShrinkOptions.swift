/// How a ``Shrinker`` searches.
public struct ShrinkOptions: Sendable, Hashable {
  /// How candidates are chosen.
  public enum Strategy: Sendable, Hashable {
    /// Delta debugging over complements, every accepted run cut where the condition was met,
    /// runs already made (and those a passing run's prefix decides) not made again, then
    /// the time and payload passes: what `shrink` does.
    case fast
    /// Zeller and Hildebrandt's ddmin as published: subsets, then complements, no cut and no
    /// time or payload pass (identical candidates are still run once). For comparison.
    case plainDeltaDebugging
  }

  /// How candidates are chosen.
  public var strategy: Strategy
  /// The wall-clock time after which the best script so far is returned, marked as possibly
  /// not minimal; `nil` for none.
  public var timeLimit: Duration?
  /// Whether to move steps earlier and simplify payloads once no step can go.
  public var simplifies: Bool

  /// Options.
  public init(strategy: Strategy = .fast, timeLimit: Duration? = nil, simplifies: Bool = true) {
    self.strategy = strategy
    self.timeLimit = timeLimit
    self.simplifies = simplifies
  }
}
