import ReactorScript
import ReactorShrinking
import ReactorTracing

/// Runs one candidate script of `shrink` in this process, through the registry, as `record`
/// records it: the one way a candidate runs, in a worker process or in process.
@MainActor
enum ShrinkCandidate {
  /// Records `script` (its header names the reactor or the app) and says whether the run
  /// met `condition`; a run that cannot go on (a step that reaches no reactor, an action
  /// that does not decode) did not.
  static func run(
    _ script: ReactorScript, condition: ShrinkCondition, settle: Duration,
    willRun: (@MainActor (ScriptStage) -> Void)? = nil
  ) async -> ShrinkRun {
    do {
      let session = try await record(script, settle: settle, willRun: willRun)
      let invariants = InvariantChecks(registry: ReactorRegistry.current)
      return condition.outcome(
        of: script, recorded: session, brokenInvariant: invariants.brokenInvariant)
    } catch {
      return ShrinkRun(
        isMet: false, stepsRun: script.steps.count, detail: CommandFailure(error).message,
        failed: true)
    }
  }

  /// The run of `script` as a session (a reactor's trace read as a session of one reactor).
  static func record(
    _ script: ReactorScript, settle: Duration, willRun: (@MainActor (ScriptStage) -> Void)?
  ) async throws -> SessionTrace {
    let registry = ReactorRegistry.current
    if let app = script.app {
      return try await registry.sessionEntry(app: app).record(
        script, script.metadata, settle, willRun
      ).session
    }
    guard let name = script.reactor, let entry = registry.entry(named: name) else {
      throw CommandFailure.unusableInput(
        registry.unknownReactorMessage(script.reactor ?? "(none named)"))
    }
    return SessionTrace(try await entry.record(script, script.metadata, settle, willRun).trace)
  }

  /// The registered invariants by reactor type, looked up once per type.
  final class InvariantChecks {
    private let registry: ReactorRegistry
    private var checks: [String: (@Sendable (JSONValue) -> String?)?] = [:]

    init(registry: ReactorRegistry) {
      self.registry = registry
    }

    /// The invariant a state of `type` breaks, or `nil`.
    func brokenInvariant(type: String, state: JSONValue) -> String? {
      if checks[type] == nil { checks[type] = .some(registry.entry(named: type)?.brokenInvariant) }
      return checks[type]!.flatMap { $0(state) }
    }
  }
}
