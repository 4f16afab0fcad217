public import Clocks
import ConcurrencyExtras
public import ReactorCore
public import ReactorTracing

/// Records a reactor driven by a script on a test clock: what `reactor-trace record` and
/// `rerecord` do, for a test or a tool of its own.
///
/// ```swift
/// let script = try ReactorScript(path: "Traces/counter.actions.jsonl")
/// let clock = TestClock()
/// let trace = try await ScriptRunner.record(
///   script, reactor: CounterReactor(clock: clock, limit: 2), clock: clock)
/// ```
///
/// The same script gives the same bytes: every time comes from the test clock. While it
/// runs, the process uses the main serial executor (`uncheckedUseMainSerialExecutor`), so
/// that effects run in a fixed order; the flag is put back as it was when the run ends.
@MainActor
public enum ScriptRunner {
  /// Records a reactor whose fakes take no scripted events.
  ///
  /// - Parameters:
  ///   - script: The script; its actions are decoded as `R.Action`.
  ///   - reactor: A fresh reactor built on `clock`.
  ///   - clock: The test clock the reactor and its fakes sleep on.
  ///   - metadata: The trace header's metadata (default: the script's).
  ///   - settle: How long effects may run after the last step.
  ///   - willRun: Told what runs next, before each step and before the effects settle.
  /// - Returns: The trace.
  /// - Throws: ``ScriptError`` when a step is not an action of the reactor, or the script
  ///   has events.
  public static func record<R: Reactor>(
    _ script: ReactorScript, reactor: R, clock: TestClock<Duration>,
    metadata: [String: String]? = nil, settle: Duration = .seconds(10),
    willRun: (@MainActor (ScriptStage) -> Void)? = nil
  ) async throws(ScriptError) -> Trace {
    try await record(
      script, reactor: reactor, clock: clock, deliver: Optional<@MainActor (NoEvent) -> Void>.none,
      metadata: metadata, settle: settle, willRun: willRun)
  }

  /// Records a reactor, handing the script's events to its fakes through `deliver`.
  ///
  /// Starts the reactor's pipeline first, as a view binding it does, then sends each
  /// scripted action at its time and hands each scripted event to `deliver` at its time, in
  /// ``ScriptOrder``. After the last step the clock runs on, a millisecond at a
  /// time, until no sleep is pending or `settle` has passed, so the trace ends when the
  /// last effect does. The trace's metadata keeps the events (``ScriptedEvents``) for
  /// replay.
  ///
  /// - Parameters:
  ///   - script: The script; its actions are decoded as `R.Action`, its events as `Event`.
  ///   - reactor: A fresh reactor built on `clock`.
  ///   - clock: The test clock the reactor and its fakes sleep on.
  ///   - deliver: Hands an event to the reactor's fakes; `nil` when they take none.
  ///   - metadata: The trace header's metadata (default: the script's).
  ///   - settle: How long effects may run after the last step.
  ///   - willRun: Told what runs next, before each step and before the effects settle
  ///     (``ScriptStage``), so that a tool can say where the reactor was if it traps.
  /// - Returns: The trace.
  /// - Throws: ``ScriptError`` naming the step that cannot be decoded.
  public static func record<R: Reactor, Event: Decodable>(
    _ script: ReactorScript, reactor: R, clock: TestClock<Duration>,
    deliver: (@MainActor (Event) -> Void)?, metadata: [String: String]? = nil,
    settle: Duration = .seconds(10), willRun: (@MainActor (ScriptStage) -> Void)? = nil
  ) async throws(ScriptError) -> Trace {
    let inputs = try decode(script, for: R.self, events: Event.self, acceptsEvents: deliver != nil)
    let recorder: InMemoryTraceRecorder<R>
    do {
      recorder = try InMemoryTraceRecorder(
        recording: reactor,
        options: TraceOptions(
          metadata: ScriptedEvents(script: script).stored(in: metadata ?? script.metadata),
          clock: clock))
    } catch {
      throw .recordingFailed(error.description)
    }
    let wasSerial = uncheckedUseMainSerialExecutor
    uncheckedUseMainSerialExecutor = true
    defer { uncheckedUseMainSerialExecutor = wasSerial }
    // The pipeline starts before the first step, as when a view binds the reactor: an event
    // handed to the fakes before any action reaches it (mutate replay and generated tests
    // start it at the same point).
    _ = reactor.state
    var now = Duration.zero
    for (index, (time, input)) in inputs.enumerated() {
      if let willRun {
        willRun(
          .step(
            number: index + 1, count: inputs.count, time: time, isAction: input.isAction,
            text: input.text))
      }
      await clock.advance(by: time - now)
      now = time
      switch input {
      case .action(let action): reactor.send(action)
      case .event(let event): deliver?(event)
      }
    }
    willRun?(.settling)
    var waited = Duration.zero
    while waited < settle, (try? await clock.checkSuspension()) == nil {
      await clock.advance(by: .milliseconds(1))
      waited += .milliseconds(1)
    }
    recorder.stop()
    return recorder.trace
  }

  /// A decoded step.
  private enum Input<Action, Event> {
    case action(Action)
    case event(Event)

    /// Whether this is an action (else an event for the fakes).
    var isAction: Bool {
      if case .action = self { true } else { false }
    }

    /// The value as its type describes it.
    var text: String {
      switch self {
      case .action(let action): String(describing: action)
      case .event(let event): String(describing: event)
      }
    }
  }

  /// The script's steps decoded (the first bad one in script order named), in
  /// ``ScriptOrder``.
  private static func decode<R: Reactor, Event: Decodable>(
    _ script: ReactorScript, for reactor: R.Type, events: Event.Type, acceptsEvents: Bool
  ) throws(ScriptError) -> [(time: Duration, input: Input<R.Action, Event>)] {
    if let app = script.app {
      throw .wrongKind(
        path: script.name,
        reason: "it is the script of the app \(app), not of one reactor: record it through "
          + "the app's session factory (SessionScriptRunner)")
    }
    guard let decodable = R.Action.self as? any Decodable.Type else {
      throw .notDecodable(String(reflecting: R.Action.self))
    }
    var inputs: [(time: Duration, input: Input<R.Action, Event>)] = []
    for step in script.steps {
      switch step.input {
      case .action(let json):
        guard let action = try? ScriptCase.decode(decodable, from: json) as? R.Action else {
          throw .undecodableInput(
            path: script.name, line: step.line, what: "action",
            reason: ScriptCase.problem(with: json, as: R.Action.self))
        }
        inputs.append((step.time, .action(action)))
      case .event(let json):
        guard acceptsEvents else {
          throw .eventsNotAccepted(
            path: script.name, line: step.line, reactor: String(reflecting: R.self))
        }
        guard let event = try? ScriptCase.decode(Event.self, from: json) else {
          throw .undecodableInput(
            path: script.name, line: step.line, what: "event",
            reason: ScriptCase.problem(with: json, as: Event.self))
        }
        inputs.append((step.time, .event(event)))
      }
    }
    return ScriptOrder.sorted(
      inputs, time: \.time,
      isAction: { $0.input.isAction })
  }

  /// The event type of a reactor whose fakes take none.
  public enum NoEvent: Decodable, Sendable {
    /// Never succeeds: there is no such event.
    public init(from decoder: any Decoder) throws {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: [], debugDescription: "the reactor takes no events"))
    }
  }
}
