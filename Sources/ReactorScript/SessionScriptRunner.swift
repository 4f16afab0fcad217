public import Clocks
import ConcurrencyExtras
public import ReactorTracing

/// Records a whole app driven by an app's script (``ReactorScript/app``) on a test clock, as
/// one session: what `reactor-trace record` does with an app's script, through the app's
/// session factory, for a test or a tool of its own.
///
/// ```swift
/// let script = try ReactorScript(path: "Traces/taskapp.script.jsonl")
/// let clock = TestClock()
/// let session = try await SessionScriptRunner.record(script, clock: clock) { recorder in
///   let app = TaskApp(clock: clock)
///   recorder.record(app.list, name: "list")
///   recorder.record(app.edit, name: "edit")
///   app.bindViews()
///   return app
/// }
/// ```
///
/// The recorder records every reactor the app creates; `app` builds the app on `clock`,
/// names the reactors the script addresses by name, and returns what must stay alive for
/// the run. Each step's action goes, at its time, to the reactor its ``ReactorAddress``
/// reaches at that moment; a step that reaches none stops the run with an error naming it.
/// As with ``ScriptRunner``, the same script gives the same bytes, and the process uses the
/// main serial executor while it runs.
@MainActor
public enum SessionScriptRunner {
  /// Records the session of the app `app` builds, driven by `script`.
  ///
  /// - Parameters:
  ///   - script: An app's script.
  ///   - clock: The test clock the app's effects and services sleep on.
  ///   - destination: Where the session goes; a file's session is read back once written.
  ///   - metadata: The session header's metadata (default: the script's); its `app` is the
  ///     script's app, which session replays find the factory by.
  ///   - including: Which reactors to record (all by default), as for
  ///     ``ReactorTracing/SessionRecorder/recordingEveryReactor(_:options:including:)``.
  ///   - settle: How long effects may run after the last step.
  ///   - willRun: Told what runs next, before each step and before the effects settle.
  ///   - app: Builds the app with the recorder installed and names its reactors.
  /// - Returns: The session.
  /// - Throws: ``ScriptError`` when the script is not an app's, a step reaches no live
  ///   reactor or its action does not decode as that reactor's, or the recorder fails.
  public static func record(
    _ script: ReactorScript, clock: TestClock<Duration>,
    to destination: SessionDestination = .memory, metadata: [String: String]? = nil,
    including: @escaping @MainActor (AnyObject) -> Bool = { _ in true },
    settle: Duration = .seconds(10), willRun: (@MainActor (ScriptStage) -> Void)? = nil,
    app: (SessionRecorder) -> AnyObject
  ) async throws(ScriptError) -> SessionTrace {
    guard let appName = script.app else {
      throw .wrongKind(
        path: script.name,
        reason: "it is the script of one reactor; an app's script names the app in its first "
          + #"line, {"app": "TaskApp"}, and each step the reactor it goes "to""#)
    }
    var header = metadata ?? script.metadata
    header["app"] = appName
    let recorder: SessionRecorder
    do {
      recorder = try SessionRecorder.recordingEveryReactor(
        destination, options: TraceOptions(metadata: header, clock: clock), including: including)
    } catch {
      throw .recordingFailed(error.description)
    }
    let wasSerial = uncheckedUseMainSerialExecutor
    uncheckedUseMainSerialExecutor = true
    defer { uncheckedUseMainSerialExecutor = wasSerial }
    let built = app(recorder)
    defer { extendLifetime(built) }
    do throws(ScriptError) {
      try await run(script, on: recorder, clock: clock, willRun: willRun)
    } catch {
      recorder.stop()
      throw error
    }
    willRun?(.settling)
    var waited = Duration.zero
    while waited < settle, (try? await clock.checkSuspension()) == nil {
      await clock.advance(by: .milliseconds(1))
      waited += .milliseconds(1)
    }
    guard case .file(let path) = destination else {
      recorder.stop()
      return recorder.session
    }
    do {
      try await recorder.close()
      return try SessionTrace(contentsOf: path)
    } catch {
      throw .recordingFailed("\(error)")
    }
  }

  /// Sends each step's action, at its time, to the reactor its address reaches then.
  private static func run(
    _ script: ReactorScript, on recorder: SessionRecorder, clock: TestClock<Duration>,
    willRun: (@MainActor (ScriptStage) -> Void)?
  ) async throws(ScriptError) {
    let steps = script.orderedSteps
    var now = Duration.zero
    for (index, step) in steps.enumerated() {
      guard case .action(let action) = step.input, let target = step.target else {
        throw .malformed(
          path: script.name, line: step.line,
          reason: "a step of an app's script sends an action 'to' one of its reactors")
      }
      willRun?(
        .step(
          number: index + 1, count: steps.count, time: step.time, isAction: true,
          text: "\(ScriptCase.compact(action).serializedString) to \(target)"))
      await clock.advance(by: step.time - now)
      now = step.time
      let reactor: Int
      do {
        reactor = try target.reactor(in: recorder)
      } catch {
        throw .unreachableReactor(path: script.name, line: step.line, error)
      }
      try send(action, to: reactor, at: step, of: script, in: recorder)
    }
  }

  /// Sends `action` as the reactor's action; a bare case name stands for the case without
  /// payload (``ScriptCase``).
  private static func send(
    _ action: JSONValue, to reactor: Int, at step: ReactorScript.Step, of script: ReactorScript,
    in recorder: SessionRecorder
  ) throws(ScriptError) {
    do {
      try recorder.send(action, to: reactor)
      return
    } catch {
      guard case .undecodable = error else {
        throw .recordingFailed(error.description)
      }
    }
    if case .string = action, (try? recorder.send(ScriptCase.expanded(action), to: reactor)) != nil
    {
      return
    }
    let reason =
      recorder.actionType(of: reactor).map { ScriptCase.problem(with: action, as: $0) }
      ?? "the reactor's Action type is not Decodable"
    throw .undecodableInput(
      path: script.name, line: step.line, what: "action for '\(step.target?.description ?? "")'",
      reason: reason)
  }
}
