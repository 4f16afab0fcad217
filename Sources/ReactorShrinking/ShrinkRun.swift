/// What one run of a candidate script gave: whether it met the condition, and how many of
/// its steps (in the order they run) had run by then.
public struct ShrinkRun: Sendable, Hashable {
  /// Whether the run met the condition.
  public var isMet: Bool
  /// How many leading steps had run when the condition was met.
  ///
  /// In ``ReactorScript/orderedSteps`` order — the steps after them cannot have changed it, so a shrinker drops
  /// them. Every step for a run that did not meet it.
  public var stepsRun: Int
  /// What was met (the invariant broken, the trap's report), or why the run failed (a step
  /// that reaches no reactor, an action that does not decode).
  public var detail: String?
  /// Whether the run could not run to its end for a reason of its own (not the condition):
  /// a step that reaches no reactor, an action that does not decode.
  public var failed: Bool

  /// A run's outcome.
  public init(isMet: Bool, stepsRun: Int, detail: String? = nil, failed: Bool = false) {
    self.isMet = isMet
    self.stepsRun = stepsRun
    self.detail = detail
    self.failed = failed
  }
}
