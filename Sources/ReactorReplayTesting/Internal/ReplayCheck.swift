internal import ReactorCore
internal import ReactorReplay
internal import ReactorTracing

/// Replays a trace file through a reactor's `reduce` and words the failure, for the assertions.
@MainActor
enum ReplayCheck {
  /// What a check found, worded for an assertion.
  struct Outcome {
    /// The replay's result, `nil` when it could not run.
    var result: ReplayResult?
    /// The failure message, `nil` when the replay matched (and, when strict, the trace had
    /// no warnings).
    var failure: String?
    /// The trace's warnings, one line each, for a matching replay that is not strict.
    var warnings: [String]
  }

  /// Replays the trace at `path`, or reactor `id` of the session there, through `reactor`.
  ///
  /// - Parameters:
  ///   - path: The trace or session file.
  ///   - id: In a session, the reactor to replay; `nil` for a trace of one reactor.
  ///   - reactor: The reactor whose `reduce` replays it.
  ///   - allowingReactorMismatch: Whether a trace of another reactor type may be replayed.
  ///   - strict: Whether a warning about the trace (torn, unfinished, no end line) fails the
  ///     check.
  /// - Returns: The verdict and what to report.
  static func run<R: Reactor>(
    _ path: String, reactorID id: Int?, reduces reactor: R, allowingReactorMismatch: Bool,
    strict: Bool
  ) -> Outcome {
    let what = id.map { "\(path), reactor \($0)" } ?? path
    let result: ReplayResult
    do {
      if let id {
        result = try ReduceReplay.run(
          SessionTrace(contentsOf: path), reactor: id, through: reactor,
          allowingReactorMismatch: allowingReactorMismatch)
      } else {
        result = try ReduceReplay.run(
          path: path, through: reactor, allowingReactorMismatch: allowingReactorMismatch)
      }
    } catch {
      return Outcome(result: nil, failure: "\(what): replay failed: \(error)", warnings: [])
    }
    return outcome(of: result, at: what, strict: strict)
  }

  /// Replays the trace at `path` through `reactor`'s `mutate`, with effects run or played
  /// back from the recording.
  ///
  /// - Parameters:
  ///   - path: The trace file.
  ///   - reactor: A fresh reactor.
  ///   - effects: Whether effects run or are played back.
  ///   - clock: The test clock the replay runs on.
  ///   - advance: Advances the test clock.
  ///   - allowingReactorMismatch: Whether a trace of another reactor type may be replayed.
  ///   - strict: Whether a warning about the trace fails the check.
  /// - Returns: The verdict and what to report.
  static func run<R: Reactor>(
    _ path: String, mutates reactor: R, effects: ReplayEffects, clock: any Clock<Duration>,
    advance: (Duration) async -> Void, allowingReactorMismatch: Bool, strict: Bool
  ) async -> Outcome {
    let result: ReplayResult
    do throws(ReplayError) {
      result = try await MutateReplay.run(
        path: path, through: reactor, clock: clock, advance: advance,
        allowingReactorMismatch: allowingReactorMismatch, effects: effects)
    } catch {
      return Outcome(result: nil, failure: "\(path): replay failed: \(error)", warnings: [])
    }
    return outcome(of: result, at: path, strict: strict)
  }

  /// Words what a replay of the trace at `path` found.
  private static func outcome(of result: ReplayResult, at path: String, strict: Bool) -> Outcome {
    let warnings = result.warnings.map { "\(path): warning: \($0)" }
    if let message = result.failureMessage {
      return Outcome(
        result: result,
        failure: (["\(path): \(message)"] + warnings).joined(separator: "\n"), warnings: [])
    }
    if strict, !warnings.isEmpty {
      return Outcome(
        result: result,
        failure: (["\(path): the replay matched an incomplete trace (strict: true):"] + warnings)
          .joined(separator: "\n"),
        warnings: [])
    }
    return Outcome(result: result, failure: nil, warnings: warnings)
  }
}
