import ReactorScript
import ReactorTracing

/// A session turned into the steps of a test: when to advance the clock, which user action
/// to send to which reactor, which scripted event to hand over, and which fields of which
/// reactor to check when.
///
/// The steps follow session mutate replay: the user's actions (sent, with no origin in
/// another reactor) at their recorded times, those at one time one after another, to the
/// reactor with the recorded id. Besides those times, the clock stops at every time the
/// recording shows an event, so that every change is checked at the time it happened: the
/// fields of every reactor that changed since the last check, a new reactor's every field, a
/// released reactor gone. A reactor whose state the session records as its description is
/// driven but not checked.
struct SessionPlan {
  /// A field of a reactor to check, or (`path` `nil`) that the reactor is gone.
  struct Check {
    var reactor: Int
    /// The field's dotted path; `nil` to check that the reactor is no longer alive.
    var path: String?
    /// The field's canonical JSON, `nil` when absent.
    var json: String?
  }

  /// A reactor of the session, as the test names it.
  struct Reactor {
    var id: Int
    /// The type as the session records it: `ReactorExamples.TaskEditReactor`.
    var type: String
    var name: String?
    /// The schema of its `Action`, to rebuild payloads.
    var actionSchema: TypeSchema?

    /// `edit #2`, or `TaskCellReactor #3` for a reactor without a name.
    var label: String {
      "\(name ?? (type.split(separator: ".").last.map(String.init) ?? type)) #\(id)"
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
    /// Hand a scripted event to the app's fakes.
    case deliver(JSONValue, time: Duration)
  }

  var path: String
  /// The session's `app` metadata, if any.
  var app: String?
  var metadata: [String: String]
  /// Every reactor the session introduced, by id.
  var reactors: [Int: Reactor] = [:]
  var userActions = 0
  var steps: [Step] = []
  /// Every reactor alive at the end, with its last state.
  var finalStates: [Int: JSONValue] = [:]
  /// The time of the session's last event.
  var end = Duration.zero

  private enum Input {
    case action(JSONValue, reactor: Int, label: String, id: Int, before: [Int: JSONValue])
    case event(JSONValue)

    var isAction: Bool { if case .action = self { true } else { false } }
  }

  init(path: String) throws(TestGenerationError) {
    let reader: SessionReader
    do {
      reader = try SessionReader(path: path)
    } catch {
      throw .unreadableTrace(error.description)
    }
    guard reader.header.version.major == SessionHeader.currentVersion.major else {
      throw .notASession(path: path)
    }
    if reader.header.window != nil {
      throw .unreplayableSession(
        path: path,
        reason: "it is a flight recorder's window, which starts in the middle of the run")
    }
    self.path = path
    metadata = reader.header.metadata
    app = metadata["app"]
    var current: [Int: JSONValue] = [:]
    var inputs: [(time: Duration, input: Input)] = []
    // Every reactor's state at the end of each time the recording shows.
    var settled: [(time: Duration, states: [Int: JSONValue])] = []
    var last: Duration?
    do {
      while let event = try reader.next() {
        if let time = last, event.time > time { settled.append((time, current)) }
        last = max(last ?? event.time, event.time)
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
        case .released(let id):
          current[id] = nil
        case .reactor(let id, .action(let action)):
          guard action.source == .sent, action.from == nil else { break }
          guard let value = action.value else {
            throw TestGenerationError.actionWithoutValue(
              path: path, action: action.id, label: action.label)
          }
          inputs.append(
            (
              event.time,
              .action(value, reactor: id, label: action.label, id: action.id, before: current)
            ))
        case .reactor(let id, .mutation):
          if case .json(let state)? = reader.currentState(of: id) { current[id] = state }
        case .gap(let gap):
          throw TestGenerationError.unreplayableSession(
            path: path, reason: "the recorder dropped \(gap.droppedEvents) events")
        default:
          break
        }
      }
    } catch let error as TestGenerationError {
      throw error
    } catch {
      throw .unreadableTrace("\(error)")
    }
    if let time = last { settled.append((time, current)) }
    finalStates = current
    end = last ?? .zero
    userActions = inputs.count
    for event in try TracePlan.scriptedEvents(in: metadata, path: path) {
      inputs.append((event.time, .event(event.value)))
    }
    inputs = ScriptOrder.sorted(inputs, time: \.time, isAction: \.input.isAction)
    planSteps(inputs: inputs, settled: settled)
  }

  /// The steps: at each time, in order, the clock advanced to it, each input (a check of
  /// what changed before each action), and a check of every reactor at the end of the time.
  private mutating func planSteps(
    inputs: [(time: Duration, input: Input)],
    settled: [(time: Duration, states: [Int: JSONValue])]
  ) {
    var times = Set(settled.map(\.time))
    times.formUnion(inputs.map(\.time))
    let atEnd = Dictionary(settled.map { ($0.time, $0.states) }, uniquingKeysWith: { $1 })
    var now = Duration.zero
    var checked: [Int: JSONValue] = [:]
    var previous = "the start"
    var remaining = inputs[...]
    for time in times.sorted() {
      if time > now {
        steps += [.advance(time - now, to: time)]
        now = time
      }
      var sent = false
      while let (inputTime, input) = remaining.first, inputTime == time {
        remaining = remaining.dropFirst()
        sent = true
        switch input {
        case .action(let value, let reactor, let label, let id, let before):
          expect(from: checked, to: before, after: previous, at: time)
          checked = before
          steps.append(.send(value, reactor: reactor, label: label, id: id, time: time))
          previous =
            "\(reactors[reactor]?.label ?? "#\(reactor)")'s \(Self.short(label)) (action \(id))"
        case .event(let value):
          steps.append(.deliver(value, time: time))
          previous = "the scripted event at \(TracePlan.text(time))"
        }
      }
      // What the inputs started runs before the time's last check.
      if sent { steps.append(.advance(.zero, to: time)) }
      if let states = atEnd[time] {
        expect(from: checked, to: states, after: previous, at: time)
        checked = states
      }
    }
  }

  /// Appends a check of every reactor's fields that differ between two moments: a new
  /// reactor's every field, a gone reactor's absence.
  private mutating func expect(
    from old: [Int: JSONValue], to new: [Int: JSONValue], after previous: String,
    at time: Duration
  ) {
    var checks: [Check] = []
    for reactor in Set(old.keys).union(new.keys).sorted() {
      guard let state = new[reactor] else {
        checks.append(Check(reactor: reactor, path: nil, json: nil))
        continue
      }
      for change in TracePlan.changes(from: old[reactor], to: state, keys: .exhaustive) {
        checks.append(Check(reactor: reactor, path: change.path, json: change.json))
      }
    }
    if !checks.isEmpty {
      steps.append(.expect(checks, context: "after \(previous), at \(TracePlan.text(time))"))
    }
  }

  /// An action's label as failure messages name it: whole when short, else its case name
  /// (`edit(…)`), so that a message stays on one line of the generated source.
  private static func short(_ label: String) -> String {
    guard label.count > 24 else { return label }
    let name = label.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
    return name.isEmpty ? String(label.prefix(23)) + "…" : name + "(…)"
  }

}
