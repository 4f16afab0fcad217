import Clocks
import ConcurrencyExtras
import ReactorCore
import ReactorTracing

/// Drives a reactor through a script on a test clock and records its trace.
@MainActor
enum ScriptRecording {
  /// Sends each scripted action at its time and returns the trace.
  ///
  /// Effects get `settle` of virtual time after the last action. The same script gives the
  /// same bytes: times come from the test clock.
  static func record<R: Reactor>(
    _ reactor: R, script: ActionScript, clock: TestClock<Duration>, metadata: [String: String],
    settle: Duration
  ) async throws(ScriptError) -> Trace {
    guard let decodable = R.Action.self as? any Decodable.Type else {
      throw .notDecodable(String(reflecting: R.Action.self))
    }
    var actions: [R.Action] = []
    for step in script.steps {
      do {
        guard let action = try decode(decodable, from: step.action) as? R.Action else {
          throw ScriptError.notDecodable(String(reflecting: R.Action.self))
        }
        actions.append(action)
      } catch {
        throw .undecodableAction(path: script.path, line: step.line, reason: "\(error)")
      }
    }
    let recorder: InMemoryTraceRecorder<R>
    do {
      recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(metadata: metadata, clock: clock))
    } catch {
      throw .recordingFailed(error.description)
    }
    uncheckedUseMainSerialExecutor = true
    var now = Duration.zero
    for (step, action) in zip(script.steps, actions) {
      await clock.advance(by: step.time - now)
      now = step.time
      reactor.send(action)
    }
    await clock.advance(by: settle)
    recorder.stop()
    return recorder.trace
  }

  private static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> Any {
    try JSONValueDecoder().decode(T.self, from: json)
  }
}
