public import ReactorScript

/// What a ``Shrinker`` found.
public struct ShrinkResult: Sendable, Hashable {
  /// The shortest script found that meets the condition, steps in the order they run.
  public var script: ReactorScript
  /// The number of steps of the input.
  public var inputSteps: Int
  /// Whether the result is 1-minimal.
  ///
  /// Dropping any one step of ``script`` was tried and no longer meets the condition; `false` when the time limit stopped the search first.
  public var isOneMinimal: Bool
  /// Whether the time limit stopped the search.
  public var stoppedByTimeLimit: Bool
  /// The candidate scripts run (the input's own run included).
  public var runs: Int
  /// Candidates whose outcome was known without running them: run before, or beginning with
  /// the steps of a run that had met the condition by then.
  public var reusedRuns: Int
  /// What the last accepted run met (the invariant broken, the trap), when it says.
  public var detail: String?

  /// A result.
  public init(
    script: ReactorScript, inputSteps: Int, isOneMinimal: Bool, stoppedByTimeLimit: Bool,
    runs: Int, reusedRuns: Int, detail: String?
  ) {
    self.script = script
    self.inputSteps = inputSteps
    self.isOneMinimal = isOneMinimal
    self.stoppedByTimeLimit = stoppedByTimeLimit
    self.runs = runs
    self.reusedRuns = reusedRuns
    self.detail = detail
  }
}

/// Where a ``Shrinker`` is, for a person watching.
public struct ShrinkProgress: Sendable, Hashable {
  /// What the shrinker does now.
  public enum Phase: String, Sendable, Hashable {
    /// Running the input as it is.
    case input = "running the input"
    /// Dropping steps.
    case removing = "dropping steps"
    /// Moving steps earlier.
    case times = "moving steps earlier"
    /// Simplifying payloads.
    case payloads = "simplifying payloads"
    /// Checking that no single step can go.
    case checking = "checking each step is needed"
  }

  /// The phase.
  public var phase: Phase
  /// Candidates run so far.
  public var runs: Int
  /// Steps of the best script so far.
  public var steps: Int
  /// Steps of the input.
  public var inputSteps: Int
}
