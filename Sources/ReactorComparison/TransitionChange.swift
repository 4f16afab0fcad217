public import ReactorStateMachines

/// What changed about one transition between two sets of runs: it appeared, it disappeared,
/// its share among the transitions leaving its state moved, or the share of its effects that
/// ended one way moved.
///
/// A change is significant when its test, corrected for the number of tests
/// (``FleetComparison``), says the difference is unlikely by chance; a transition seen on one
/// side only that is not significant is kept apart (``FleetComparison/Reactor/oneSided``).
public struct TransitionChange: Sendable, Hashable {
  /// What kind of change.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// Seen after, never before.
    case added
    /// Seen before, never after.
    case removed
    /// Seen on both sides, its share of the transitions leaving its state moved.
    case shift
    /// Seen on both sides, the share of its effects that ended one way moved.
    case outcome
  }

  /// How often something happened on one side, out of how many chances.
  public struct Share: Sendable, Hashable {
    /// How many times.
    public var count: Int
    /// Out of how many: the transitions leaving the state (the transition's own count for an
    /// outcome).
    public var total: Int

    /// Creates a share.
    public init(count: Int, total: Int) {
      self.count = count
      self.total = total
    }

    /// `count / total`, or 0 when `total` is 0.
    public var fraction: Double { total == 0 ? 0 : Double(count) / Double(total) }
  }

  /// What kind of change.
  public var kind: Kind
  /// The reactor type, module-qualified.
  public var reactor: String
  /// The transition.
  public var transition: StateTransition
  /// For ``Kind/outcome``: how the effects ended (`failed`, `cancelled`, `finished`,
  /// `running` or `sync`).
  public var outcome: String?
  /// Before: how often, out of how many.
  public var before: Share
  /// After: how often, out of how many.
  public var after: Share
  /// The test's p-value; `nil` when it was not tested (its state is never left on the other
  /// side).
  public var pValue: Double?
  /// The p-value adjusted for the number of tests (Benjamini–Hochberg); `nil` when not
  /// tested or when it could not reach significance whatever its counts.
  public var qValue: Double?
  /// Whether the test was Fisher's exact test (small counts) rather than the two-proportion
  /// z-test.
  public var isExact: Bool
  /// Whether the change is significant at the comparison's alpha.
  public var isSignificant: Bool
  /// For a transition from a state the other side never reaches: the significant added or
  /// removed transition that leads into that state.
  public var through: StateTransition?

  /// Creates a change.
  public init(
    kind: Kind, reactor: String, transition: StateTransition, outcome: String? = nil,
    before: Share, after: Share, pValue: Double?, qValue: Double?, isExact: Bool,
    isSignificant: Bool, through: StateTransition? = nil
  ) {
    self.kind = kind
    self.reactor = reactor
    self.transition = transition
    self.outcome = outcome
    self.before = before
    self.after = after
    self.pValue = pValue
    self.qValue = qValue
    self.isExact = isExact
    self.isSignificant = isSignificant
    self.through = through
  }

  /// The after share over the before share: above 1 when it became more frequent; infinite
  /// for an added transition, 0 for a removed one.
  public var ratio: Double {
    let old = before.fraction
    let new = after.fraction
    if old == 0 { return new == 0 ? 1 : .infinity }
    return new / old
  }
}
