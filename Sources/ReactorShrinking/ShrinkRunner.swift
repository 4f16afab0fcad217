public import ReactorScript

/// Runs candidate scripts for a ``Shrinker`` and says what each gave.
///
/// The shrinker hands over at most ``parallelism`` scripts at a time and takes the first one,
/// in the order given, that meets the condition, so that the result does not depend on which
/// finished first. A runner that runs them at the same time must keep the runs apart: one
/// virtual clock per process (the main serial executor is process-wide), so `reactor-trace
/// shrink` runs each in a worker process of its own.
public protocol ShrinkRunner: Sendable {
  /// How many scripts a call may take at once: the runs that go on at the same time.
  var parallelism: Int { get }

  /// Runs each script from a fresh start and returns their outcomes, in order.
  /// - Throws: ``ShrinkError/runnerFailed(_:)`` when runs cannot go on at all.
  func run(_ scripts: [ReactorScript]) async throws(ShrinkError) -> [ShrinkRun]
}

/// Runs candidates one after the other in this process, through a function that runs one:
/// the runner of tests and of tools that shrink in process (a trap ends the process, so it
/// does not serve ``ShrinkCondition/trap``).
public struct SerialShrinkRunner: ShrinkRunner {
  /// Runs one script.
  public let runOne: @MainActor @Sendable (ReactorScript) async -> ShrinkRun

  /// A runner over `runOne`.
  public init(_ runOne: @escaping @MainActor @Sendable (ReactorScript) async -> ShrinkRun) {
    self.runOne = runOne
  }

  /// One at a time.
  public var parallelism: Int { 1 }

  /// Runs each script in turn on the main actor.
  @MainActor
  public func run(_ scripts: [ReactorScript]) async throws(ShrinkError) -> [ShrinkRun] {
    var runs: [ShrinkRun] = []
    for script in scripts { runs.append(await runOne(script)) }
    return runs
  }
}
