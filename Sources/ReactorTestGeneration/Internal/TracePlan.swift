import ReactorScript
import ReactorTracing

/// A trace turned into the steps of a test: when to advance the clock, what to send or hand
/// over, and which fields to check when.
///
/// The steps follow `reactor-trace record`: inputs in time order, scripted events before
/// actions at the same time, the clock advanced to each input's time before it, and at the
/// end to the time of the trace's last event. So the test drives the reactor exactly as the
/// recording did, and each check sees the state the trace recorded at that moment.
struct TracePlan {
  /// A field to check: its dotted path and its canonical JSON, `nil` when absent.
  struct Check {
    var path: String
    var json: String?
  }

  enum Step {
    /// Advance the clock by this much (zero lets pending work run).
    case advance(Duration, to: Duration)
    /// Check fields; `context` says when, for failure messages.
    case expect([Check], context: String)
    /// Send an action.
    case send(JSONValue, label: String, id: Int, time: Duration)
    /// Hand a scripted event to the fakes.
    case deliver(JSONValue, time: Duration)
  }

  var path: String
  var reactor: String
  var metadata: [String: String]
  /// The schema of the reactor's `Action` the trace recorded, to rebuild payloads.
  var actionSchema: TypeSchema?
  var steps: [Step] = []

  private enum Input {
    case action(JSONValue, label: String, id: Int, stateBefore: JSONValue, stateAfter: JSONValue)
    case event(JSONValue)

    var isAction: Bool { if case .action = self { true } else { false } }
  }

  init(path: String, expectations: TestGenerationOptions.Expectations)
    throws(TestGenerationError)
  {
    let reader: TraceReader
    do {
      reader = try TraceReader(path: path)
    } catch {
      throw .unreadableTrace(error.description)
    }
    self.path = path
    reactor = reader.header.reactor
    metadata = reader.header.metadata
    actionSchema = reader.header.schema.action.shape
    let initial = Self.json(reader.header.initialState)
    var current = initial
    var inputs: [(time: Duration, input: Input)] = []
    // The state after each mutation, to know the state a scripted event found.
    var changes: [StateChange] = []
    var sentActions: [(time: Duration, sequence: Int)] = []
    var end = Duration.zero
    // The action whose state "right after it" is still open: the state before the first
    // later event at a later time, or before the next sent action.
    var open: (index: Int, time: Duration)?
    func close(at time: Duration?, isAction: Bool) {
      guard let pending = open, isAction || time.map({ $0 > pending.time }) ?? true else { return }
      if case .action(let value, let label, let id, let before, _) = inputs[pending.index].input {
        inputs[pending.index].input = .action(
          value, label: label, id: id, stateBefore: before, stateAfter: current)
      }
      open = nil
    }
    do {
      while let event = try reader.next() {
        end = max(end, event.time)
        var isSentAction = false
        if case .action(let action) = event.kind, case .sent = action.source { isSentAction = true }
        close(at: event.time, isAction: isSentAction)
        switch event.kind {
        case .action(let action):
          guard case .sent = action.source else { break }
          guard let value = action.value else {
            throw TestGenerationError.actionWithoutValue(
              path: path, action: action.id, label: action.label)
          }
          inputs.append(
            (
              event.time,
              .action(
                value, label: action.label, id: action.id, stateBefore: current,
                stateAfter: current)
            ))
          open = (inputs.count - 1, event.time)
          sentActions.append((event.time, event.sequence))
        case .mutation(let mutation):
          current = Self.json(reader.currentState)
          // A stream's mutation whose element the reactor's own action published is that
          // action's doing, not a scripted event's.
          var isStream = false
          if case .stream = mutation.attributedCause() { isStream = true }
          changes.append(
            StateChange(
              time: event.time, sequence: event.sequence, isStream: isStream, state: current))
        default:
          break
        }
      }
    } catch let error as TestGenerationError {
      throw error
    } catch {
      throw .unreadableTrace("\(error)")
    }
    close(at: nil, isAction: true)
    for event in try Self.scriptedEvents(in: metadata, path: path) {
      inputs.append((event.time, .event(event.value)))
    }
    // As `record` orders them.
    inputs = ScriptOrder.sorted(inputs, time: \.time, isAction: \.input.isAction)

    var now = Duration.zero
    var checked = initial
    var previous = "the start"
    for (time, input) in inputs {
      steps.append(.advance(time - now, to: time))
      now = time
      switch input {
      case .action(let value, let label, let id, let stateBefore, let stateAfter):
        if expectations != .finalState {
          let checks = Self.changes(from: checked, to: stateBefore, keys: expectations)
          if !checks.isEmpty {
            steps.append(.expect(checks, context: "after \(previous), at \(Self.text(time))"))
          }
        }
        steps.append(.send(value, label: label, id: id, time: time))
        previous = "\(label) (action \(id))"
        // What the action changed at once, before the clock moves on.
        steps.append(.advance(.zero, to: time))
        if expectations != .finalState {
          let checks = Self.changes(from: stateBefore, to: stateAfter, keys: expectations)
          if !checks.isEmpty {
            steps.append(.expect(checks, context: "after \(previous), at \(Self.text(time))"))
          }
        }
        checked = stateAfter
      case .event(let value):
        // What changed since the last check is the last action's doing; what changes next,
        // the event's.
        let stateBefore = Self.state(
          beforeEventAt: time, changes: changes, initial: initial, sentActions: sentActions)
        if expectations != .finalState {
          let checks = Self.changes(from: checked, to: stateBefore, keys: expectations)
          if !checks.isEmpty {
            steps.append(.expect(checks, context: "after \(previous), at \(Self.text(time))"))
          }
        }
        checked = stateBefore
        steps.append(.deliver(value, time: time))
        previous = "the scripted event at \(Self.text(time))"
      }
    }
    steps.append(.advance(max(end - now, .zero), to: max(end, now)))
    let checks =
      expectations == .finalState
      ? Self.leaves(of: current).map { Check(path: $0.path.description, json: $0.json) }
      : Self.changes(from: checked, to: current, keys: expectations)
    if !checks.isEmpty {
      steps.append(.expect(checks, context: "after \(previous), at the end (\(Self.text(end)))"))
    }
  }

  /// The scripted events a trace's or session's metadata holds (`script.events`).
  static func scriptedEvents(
    in metadata: [String: String], path: String
  ) throws(TestGenerationError) -> [ScriptedEvents.Event] {
    do {
      return try ScriptedEvents(metadata: metadata).events
    } catch {
      throw .unusableEvents(path: path, reason: error.description)
    }
  }

  /// The state after one mutation of the trace.
  private struct StateChange {
    var time: Duration
    var sequence: Int
    /// Whether a stream caused it, as a scripted event's mutations are.
    var isStream: Bool
    var state: JSONValue
  }

  /// The state the trace recorded just before the scripted event at `time` was handed over:
  /// after every mutation before that time, and those at that time that came before the
  /// first mutation of a stream (the event's) and before the actions sent then (which
  /// `record` sends after the events).
  private static func state(
    beforeEventAt time: Duration, changes: [StateChange], initial: JSONValue,
    sentActions: [(time: Duration, sequence: Int)]
  ) -> JSONValue {
    let nextAction = sentActions.first { $0.time >= time }?.sequence ?? Int.max
    var state = initial
    for change in changes {
      if change.time > time || change.sequence > nextAction { break }
      if change.time == time, change.isStream { break }
      state = change.state
    }
    return state
  }

  /// `500 ms`, or `1.5 ms` for a fraction.
  static func text(_ time: Duration) -> String {
    (TraceTime.millisecondsText(time) ?? "\(time)") + " ms"
  }

  private static func json(_ state: TraceHeader.State) -> JSONValue {
    switch state {
    case .json(let json): json
    case .description(let text): .string(text)
    }
  }

  /// The fields that differ between two states, in path order, limited to `keys`; every
  /// field of `new` when there is no `old` state.
  static func changes(
    from old: JSONValue?, to new: JSONValue, keys: TestGenerationOptions.Expectations
  ) -> [Check] {
    let before = Dictionary(
      (old.map(leaves(of:)) ?? []).map { ($0.path, $0.json) },
      uniquingKeysWith: { first, _ in first })
    let after = leaves(of: new)
    var changed: [(path: StatePath, json: String?)] = []
    var seen: Set<StatePath> = []
    for leaf in after {
      seen.insert(leaf.path)
      if before[leaf.path] != leaf.json { changed.append((leaf.path, leaf.json)) }
    }
    // A field that went away, unless it became a container whose leaves are checked.
    for path in before.keys.sorted(by: { $0.description < $1.description })
    where !seen.contains(path) {
      if seen.contains(where: { $0 != path && path.contains($0) }) { continue }
      changed.append((path, nil))
    }
    if case .keys(let wanted) = keys {
      changed = changed.filter { check in wanted.contains { $0.contains(check.path) } }
    }
    return changed.map { Check(path: $0.path.description, json: $0.json) }
  }

  /// The leaves of a state (``StatePath/leaves(of:)``) with their canonical JSON.
  private static func leaves(of value: JSONValue) -> [(path: StatePath, json: String)] {
    StatePath.leaves(of: value).map { ($0.path, $0.value.serializedString) }
  }
}
