import ReactorScript
import ReactorTracing

/// A recording turned into the steps of a test: when to advance the clock, which user action
/// to send to which reactor, which scripted event to hand over, and which fields of which
/// reactor to check when.
///
/// Every recording is read as a session (a trace of one reactor is a session of one reactor,
/// id 1). Its inputs are the user's actions (sent, with no origin in another reactor), the
/// jumps sent from outside the app, and the scripted events of its `script.events` metadata,
/// in the order `record` runs them. How
/// the steps check the states follows the ``TestSubject``: see ``TestPlan/planSteps()``. A
/// reactor whose state the recording holds as its description is driven but not checked.
struct TestPlan {
  /// A field of a reactor to check, or (`path` `nil`) that the reactor is gone.
  struct Check {
    var reactor: Int
    /// The field's path; `nil` to check that the reactor is no longer alive.
    var path: StatePath?
    /// The field's canonical JSON, `nil` when absent.
    var json: String?
  }

  /// A reactor of the recording, as the test names it.
  struct Reactor {
    var id: Int
    /// The type as recorded: `ReactorExamples.TaskEditReactor`.
    var type: String
    var name: String?
    /// The schema of its `Action`, to rebuild payloads.
    var actionSchema: TypeSchema?

    /// `edit #2`, or `TaskCellReactor #3` for a reactor without a name.
    var label: String {
      "\(name ?? ReactorIntroduction.shortTypeName(type)) #\(id)"
    }

    /// The module the type is declared in (`ReactorExamples`), which a generated test
    /// imports; `nil` when the recorded name has none.
    var module: String? {
      let parts = type.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, let first = parts[0].first, first.isLetter || first == "_",
        parts[0].allSatisfy({ ($0.isLetter || $0.isNumber || $0 == "_") && $0.isASCII })
      else { return nil }
      return String(parts[0])
    }

    /// The type as Swift source, without its module (`TaskEditReactor`), or `nil` when the
    /// recorded name is no plain type path (a generic or local type).
    var sourceType: String? {
      let parts = type.split(separator: ".", omittingEmptySubsequences: false)
      let path = parts.count > 1 ? parts.dropFirst() : parts[...]
      let isPlain = path.allSatisfy { part in
        guard let first = part.first, first.isLetter || first == "_" else { return false }
        return part.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "_") && $0.isASCII }
      }
      return isPlain ? path.joined(separator: ".") : nil
    }
  }

  enum Step {
    /// Advance the clock by this much (zero lets pending work run).
    case advance(Duration, to: Duration)
    /// Check fields; `context` says when, for failure messages.
    case expect([Check], context: String)
    /// Send a user action to a reactor.
    case send(JSONValue, reactor: Int, label: String, id: Int, time: Duration)
    /// Hand a scripted event to the fakes.
    case deliver(JSONValue, time: Duration)
    /// Set a reactor's state from outside the app, as a recorded jump did.
    case jump(Jump, time: Duration)
  }

  /// A recorded jump: the state set from outside the app (issue 43).
  struct Jump {
    /// The state, whole.
    var state: JSONValue
    var reactor: Int
    /// The `seq` of the event whose state it is.
    var target: Int
    /// Who asked for it: `page` or `client`.
    var external: String
  }

  /// Every reactor's state at one moment, by id.
  typealias States = [Int: JSONValue]

  /// An input of the recording, at its time.
  enum Input {
    /// A user action, with the states right before it and right after it (before the first
    /// later event at a later time, or before the next user action).
    case action(
      JSONValue, reactor: Int, label: String, id: Int, before: States, after: States)
    case event(JSONValue)
    /// A jump, with the states right before and right after it, as for an action.
    case jump(Jump, before: States, after: States)

    /// Whether it is sent to a reactor (an action, or a jump), after the scripted events of
    /// its time, not handed to the fakes.
    var isAction: Bool {
      switch self {
      case .action, .jump: true
      case .event: false
      }
    }
  }

  /// The states after one mutation.
  struct StateChange {
    var time: Duration
    var sequence: Int
    /// Whether a stream caused it, as a scripted event's mutations are.
    var isStream: Bool
    var states: States
  }

  var path: String
  var metadata: [String: String]
  /// Every reactor the recording introduced, by id.
  var reactors: [Int: Reactor] = [:]
  /// What the test builds and drives.
  var subject: TestSubject {
    TestSubject(app: metadata["app"], reactors: reactors.values.map(\.type))
  }
  var userActions = 0
  var steps: [Step] = []
  /// Every reactor alive at the end, with its last state.
  var finalStates: States = [:]
  /// When the final state is checked, for failure messages.
  var finalContext = ""
  /// The time of the recording's last event.
  var end = Duration.zero

  // What reading found, for planning the steps.
  var inputs: [(time: Duration, input: Input)] = []
  /// The states when the first reactor was introduced.
  var initialStates: States = [:]
  /// The states at the end of each time the recording shows.
  var settled: [(time: Duration, states: States)] = []
  var changes: [StateChange] = []
  var userActionTimes: [(time: Duration, sequence: Int)] = []

  init(path: String) throws(TestGenerationError) {
    let reader: SessionReader
    do {
      reader = try SessionReader(path: path)
    } catch {
      throw .unreadableTrace(error.description)
    }
    if reader.header.window != nil {
      throw .unreplayableSession(
        path: path,
        reason: "it is a flight recorder's window, which starts in the middle of the run")
    }
    self.path = path
    metadata = reader.header.metadata
    do {
      try read(reader)
    } catch let error as TestGenerationError {
      throw error
    } catch {
      throw .unreadableTrace("\(error)")
    }
    finalStates = current
    userActions = inputs.count { if case .action = $0.input { true } else { false } }
    for event in try Self.scriptedEvents(in: metadata, path: path) {
      inputs.append((event.time, .event(event.value)))
    }
    inputs = ScriptOrder.sorted(inputs, time: \.time, isAction: \.input.isAction)
    planSteps()
  }

  /// The states after the event read last.
  private var current: States = [:]

  /// Reads every event: the reactors, the user actions, the states over time.
  private mutating func read(_ reader: SessionReader) throws {
    var last: Duration?
    // The user action whose state "right after it" is still open.
    var open: (index: Int, time: Duration)?
    while let event = try reader.next() {
      if let time = last, event.time > time { settled.append((time, current)) }
      last = max(last ?? event.time, event.time)
      var userAction: TraceEvent.Action?
      if case .reactor(_, .action(let action)) = event.kind, action.source == .sent,
        action.from == nil
      {
        userAction = action
      }
      var isJump = false
      if case .reactor(_, .jump) = event.kind { isJump = true }
      if let pending = open, userAction != nil || isJump || event.time > pending.time {
        close(pending.index)
        open = nil
      }
      switch event.kind {
      case .introduced(let introduction):
        let id = introduction.reactor
        reactors[id] = Reactor(
          id: id, type: introduction.type, name: introduction.name,
          actionSchema: introduction.schema.action.shape)
        // A state recorded as its description cannot be read back while the test runs:
        // such a reactor is driven, never checked.
        if case .json(let state) = reader.currentState(of: id) ?? introduction.initialState {
          current[id] = state
        }
        if reactors.count == 1 { initialStates = current }
      case .released(let id):
        current[id] = nil
      case .reactor(let id, .action(let action)):
        guard userAction != nil else { break }
        guard let value = action.value else {
          throw TestGenerationError.actionWithoutValue(
            path: path, action: action.id, label: action.label)
        }
        inputs.append(
          (
            event.time,
            .action(
              value, reactor: id, label: action.label, id: action.id, before: current,
              after: current)
          ))
        open = (inputs.count - 1, event.time)
        userActionTimes.append((event.time, event.sequence))
      case .reactor(let id, .mutation(let mutation)):
        if case .json(let state)? = reader.currentState(of: id) { current[id] = state }
        // A stream's mutation whose element the reactor's own action published is that
        // action's doing, not a scripted event's.
        var isStream = false
        if case .stream = mutation.attributedCause() { isStream = true }
        changes.append(
          StateChange(
            time: event.time, sequence: event.sequence, isStream: isStream, states: current))
      case .gap(let gap):
        throw TestGenerationError.unreplayableSession(
          path: path, reason: "the recorder dropped \(gap.droppedEvents) events")
      case .reactor(let id, .jump(let jump)):
        // Performed as the app performed it (issue 43), with the state it recorded.
        guard case .json(let state)? = reader.currentState(of: id) else {
          throw TestGenerationError.unreplayableSession(
            path: path,
            reason: "the state of the jump at seq \(event.sequence) is recorded only as its "
              + "description, which a test cannot decode")
        }
        let before = current
        current[id] = state
        changes.append(
          StateChange(
            time: event.time, sequence: event.sequence, isStream: false, states: current))
        inputs.append(
          (
            event.time,
            .jump(
              Jump(
                state: state, reactor: id, target: jump.target,
                external: jump.external ?? "client"), before: before, after: current)
          ))
        open = (inputs.count - 1, event.time)
        userActionTimes.append((event.time, event.sequence))
      default:
        break
      }
    }
    if let pending = open { close(pending.index) }
    if let time = last { settled.append((time, current)) }
    end = last ?? .zero
  }

  /// Sets the states right after the user action at `index` to the current ones.
  private mutating func close(_ index: Int) {
    switch inputs[index].input {
    case .action(let value, let reactor, let label, let id, let before, _):
      inputs[index].input = .action(
        value, reactor: reactor, label: label, id: id, before: before, after: current)
    case .jump(let jump, let before, _):
      inputs[index].input = .jump(jump, before: before, after: current)
    case .event:
      break
    }
  }

  /// The scripted events a recording's metadata holds (`script.events`).
  static func scriptedEvents(
    in metadata: [String: String], path: String
  ) throws(TestGenerationError) -> [ScriptedEvents.Event] {
    do {
      return try ScriptedEvents(metadata: metadata).events
    } catch {
      throw .unusableEvents(path: path, reason: error.description)
    }
  }

  /// `500 ms`, or `1.5 ms` for a fraction.
  static func text(_ time: Duration) -> String {
    (TraceTime.millisecondsText(time) ?? "\(time)") + " ms"
  }
}
