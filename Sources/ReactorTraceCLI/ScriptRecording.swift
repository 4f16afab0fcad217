import Clocks
import ConcurrencyExtras
import ReactorCore
import ReactorTracing

/// Drives a reactor through a script on a test clock and records its trace.
@MainActor
enum ScriptRecording {
  /// A decoded step.
  private enum Input {
    case action(Any)
    case event(Any)

    var isAction: Bool {
      if case .action = self { true } else { false }
    }
  }

  /// Sends each scripted action at its time, hands each scripted event to `deliver` at its
  /// time, and returns the trace and, when `view` is given, the text of a view bound to the
  /// reactor at the end.
  ///
  /// At equal times events come first, as in mutate replay. After the last step the clock
  /// runs on, a millisecond at a time, until no sleep is pending or `settle` has passed, so
  /// the trace ends when the last effect does. The same script gives the same bytes: times
  /// come from the test clock.
  static func record<R: Reactor, Event: Decodable>(
    _ reactor: R, deliver: (@MainActor (Event) -> Void)?,
    view: (@MainActor (R) -> @MainActor () -> String)?, script: ActionScript,
    clock: TestClock<Duration>, metadata: [String: String], settle: Duration
  ) async throws(ScriptError) -> (trace: Trace, screen: String?) {
    guard let decodable = R.Action.self as? any Decodable.Type else {
      throw .notDecodable(String(reflecting: R.Action.self))
    }
    var inputs: [(time: Duration, input: Input)] = []
    for step in script.steps {
      do {
        switch step.input {
        case .action(let json):
          guard let action = try decode(decodable, from: json) as? R.Action else {
            throw ScriptError.notDecodable(String(reflecting: R.Action.self))
          }
          inputs.append((step.time, .action(action)))
        case .event(let json):
          guard deliver != nil else {
            throw ScriptError.eventsNotAccepted(
              path: script.path, line: step.line, reactor: String(reflecting: R.self))
          }
          inputs.append((step.time, .event(try decode(Event.self, from: json))))
        }
      } catch let error as ScriptError {
        throw error
      } catch {
        switch step.input {
        case .action(let json):
          throw .undecodableInput(
            path: script.path, line: step.line, what: "action",
            reason: Self.problem(with: json, as: R.Action.self))
        case .event(let json):
          throw .undecodableInput(
            path: script.path, line: step.line, what: "event",
            reason: Self.problem(with: json, as: Event.self))
        }
      }
    }
    // Stable: script order within a time, events before actions.
    inputs = inputs.enumerated().sorted { lhs, rhs in
      let left = (lhs.element.time, lhs.element.input.isAction ? 1 : 0, lhs.offset)
      let right = (rhs.element.time, rhs.element.input.isAction ? 1 : 0, rhs.offset)
      return left < right
    }.map(\.element)
    let recorder: InMemoryTraceRecorder<R>
    do {
      recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(metadata: metadata, clock: clock))
    } catch {
      throw .recordingFailed(error.description)
    }
    let screen = view?(reactor)
    uncheckedUseMainSerialExecutor = true
    var now = Duration.zero
    defer { ReactorTrap.clear() }
    for (index, (time, input)) in inputs.enumerated() {
      // What was running when the reactor trapped: this step, or what the ones before it
      // started, up to its time.
      ReactorTrap.running(
        "the reactor trapped (Swift's message is on standard error) at step \(index + 1) of \(inputs.count) "
          + "of the script, t=\(Self.milliseconds(time)) ms: "
          + (input.isAction ? "the action " : "the event ") + Self.text(of: input)
          + (index == 0 ? "" : ", or in what the steps before it started"),
        exitCode: ReactorTrap.exitCode)
      await clock.advance(by: time - now)
      now = time
      switch input {
      case .action(let action): reactor.send(action as! R.Action)
      case .event(let event): deliver?(event as! Event)
      }
    }
    ReactorTrap.running(
      "the reactor trapped (Swift's message is on standard error) after the last step of the script, in the "
        + "effects still running",
      exitCode: ReactorTrap.exitCode)
    var waited = Duration.zero
    while waited < settle, (try? await clock.checkSuspension()) == nil {
      await clock.advance(by: .milliseconds(1))
      waited += .milliseconds(1)
    }
    recorder.stop()
    return (recorder.trace, screen?())
  }

  /// A step's value as the reactor describes it, cut to 200 characters.
  private static func text(of input: Input) -> String {
    let value: Any
    switch input {
    case .action(let action): value = action
    case .event(let event): value = event
    }
    let text = String(describing: value)
    return text.count > 200 ? String(text.prefix(199)) + "…" : text
  }

  /// `duration` in whole or fractional milliseconds.
  private static func milliseconds(_ duration: Duration) -> String {
    let milliseconds = duration / .milliseconds(1)
    return milliseconds == milliseconds.rounded() ? String(Int64(milliseconds)) : "\(milliseconds)"
  }

  /// Why `json` is not a value of the enum `type`, in its cases' terms: the case it names is
  /// not one of them, or its payload is not what the case holds.
  static func problem<T>(with json: JSONValue, as type: T.Type) -> String {
    let typeName = String(reflecting: type)
    guard case .enumeration(_, _, let cases, _)? = TypeFingerprint(of: type).shape else {
      return "\(json.serializedString) is not a \(typeName)"
    }
    func syntax(_ found: TypeSchema.Case) -> String {
      guard !found.fields.isEmpty else { return "\"\(found.name)\"" }
      let fields = found.fields.map { "\"\($0.name)\": \($0.schema)" }.joined(separator: ", ")
      return "{\"\(found.name)\": {\(fields)}}"
    }
    let all = "its cases: " + cases.map(syntax).joined(separator: ", ")
    var name: String?
    switch json {
    case .string(let text): name = text
    case .object(let object) where object.count == 1: name = object.members.first?.key
    default: break
    }
    guard let name else {
      return "\(json.serializedString) is not a case of \(typeName); \(all)"
    }
    guard let found = cases.first(where: { $0.name == name }) else {
      return "'\(name)' is not a case of \(typeName); \(all)"
    }
    return "the case '\(name)' of \(typeName) is written \(syntax(found)), not "
      + json.serializedString
  }

  /// Decodes `json`; a bare string such as `"increase"` also stands for the case without
  /// associated values, `{"increase": {}}`.
  static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
    do {
      return try JSONValueDecoder().decode(T.self, from: json)
    } catch {
      guard case .string(let name) = json,
        let value = try? JSONValueDecoder().decode(
          T.self, from: .object(JSONObject([(name, .object(JSONObject()))])))
      else { throw error }
      return value
    }
  }
}
