public import ReactorScript
import ReactorTracing

/// Shrinks a script that makes something happen to a shortest one that still does: the
/// library behind `reactor-trace shrink`.
///
/// ```swift
/// let shrinker = Shrinker(runner: SerialShrinkRunner { script in
///   let clock = TestClock()
///   let trace = try? await ScriptRunner.record(
///     script, reactor: CounterReactor(clock: clock), clock: clock)
///   return trace.map { condition.outcome(of: script, recorded: SessionTrace($0)) }
///     ?? ShrinkRun(isMet: false, stepsRun: script.steps.count, failed: true)
/// })
/// let result = try await shrinker.shrink(script)
/// ```
///
/// Delta debugging (Zeller and Hildebrandt) drops ever smaller chunks of steps while the
/// condition still holds; every run that meets it also says how many steps had run by then,
/// and the steps after those are dropped at once. A candidate already run, or one that
/// begins with the steps a met run had run by then (and whose next step comes no earlier),
/// is not run again. When no chunk can go, each step is moved earlier (closing the gap
/// before it, else halving it) and each payload simplified (empty or halved strings,
/// zeroed or halved numbers, `false`), each change kept only when the condition still holds;
/// then each step is tried away once more. The result is 1-minimal — dropping any one step
/// no longer meets the condition — and the same input gives the same result, however many
/// runs go on at once: of candidates run together the first one in order that meets the
/// condition is taken.
public struct Shrinker: Sendable {
  /// Runs the candidates.
  public var runner: any ShrinkRunner
  /// How to search.
  public var options: ShrinkOptions

  /// A shrinker.
  public init(runner: any ShrinkRunner, options: ShrinkOptions = ShrinkOptions()) {
    self.runner = runner
    self.options = options
  }

  /// Shrinks `script`.
  /// - Parameters:
  ///   - script: The input; its steps are taken in the order they run
  ///     (``ReactorScript/orderedSteps``).
  ///   - condition: The condition as the user wrote it, for the error of an input that
  ///     never meets it.
  ///   - progress: Told where the search is, after each phase change and each smaller script.
  /// - Returns: The shortest script found.
  /// - Throws: ``ShrinkError/conditionNeverMet(path:condition:)`` when the input does not
  ///   meet the condition, ``ShrinkError/inputFailed(path:reason:)`` when it does not run,
  ///   the runner's error.
  public func shrink(
    _ script: ReactorScript, condition: String = "the condition",
    progress: (@Sendable (ShrinkProgress) -> Void)? = nil
  ) async throws(ShrinkError) -> ShrinkResult {
    var search = Search(
      shrinker: self, template: script, steps: script.orderedSteps, progress: progress)
    let input: ShrinkRun
    do {
      input = try await search.run([search.steps], phase: .input)[0]
    } catch {
      switch error {
      case .timeLimit: throw .conditionNeverMet(path: script.name, condition: condition)
      case .runner(let failure): throw failure
      }
    }
    guard input.isMet else {
      if input.failed {
        throw .inputFailed(path: script.name, reason: input.detail ?? "it failed")
      }
      throw .conditionNeverMet(path: script.name, condition: condition)
    }
    search.accept(search.steps, run: input)
    var isMinimal = false
    do throws(Search.Stop) {
      switch options.strategy {
      case .plainDeltaDebugging:
        try await search.plainDeltaDebugging()
        isMinimal = true
      case .fast:
        try await search.removeSteps(granularity: 2)
        while options.simplifies {
          let moved = try await search.moveEarlier()
          let simplified = try await search.simplifyPayloads()
          guard moved || simplified else { break }
          guard try await search.removeSteps(granularity: search.steps.count) else { break }
        }
        isMinimal = true
      }
    } catch {
      switch error {
      case .timeLimit: isMinimal = false
      case .runner(let failure): throw failure
      }
    }
    return ShrinkResult(
      script: search.script(search.steps), inputSteps: script.steps.count,
      isOneMinimal: isMinimal, stoppedByTimeLimit: !isMinimal, runs: search.runs,
      reusedRuns: search.reused, detail: search.detail)
  }
}
