import ReactorTracing

extension TestPlan {
  /// The steps, as the subject's test drives it.
  ///
  /// A reactor alone is driven as `reactor-trace record` drove it: inputs in time order,
  /// scripted events before actions at the same time, the clock advanced to each input's
  /// time before it, and at the end to the time of the recording's last event. Its changed
  /// fields are checked before and right after each action, before each scripted event and
  /// at the end.
  ///
  /// An app is driven as session mutate replay drives it: besides its inputs' times, the
  /// clock stops at every time the recording shows an event, so that every change is
  /// checked at the time it happened: the fields of every reactor that changed since the
  /// last check, a new reactor's every field, a released reactor gone.
  mutating func planSteps() {
    switch subject {
    case .reactor: planStepsAtInputs()
    case .app: planStepsAtEveryTime()
    }
  }

  /// A reactor's steps: at each input and at the end.
  private mutating func planStepsAtInputs() {
    var now = Duration.zero
    var checked = initialStates
    var previous = "the start"
    for (time, input) in inputs {
      steps.append(.advance(time - now, to: time))
      now = time
      switch input {
      case .action(let value, let reactor, let label, let id, let before, let after):
        expect(from: checked, to: before, context: "after \(previous), at \(Self.text(time))")
        steps.append(.send(value, reactor: reactor, label: label, id: id, time: time))
        previous = "\(label) (action \(id))"
        // What the action changed at once, before the clock moves on.
        steps.append(.advance(.zero, to: time))
        expect(from: before, to: after, context: "after \(previous), at \(Self.text(time))")
        checked = after
      case .jump(let jump, let before, let after):
        expect(from: checked, to: before, context: "after \(previous), at \(Self.text(time))")
        steps.append(.jump(jump, time: time))
        previous = "the jump to event \(jump.target)"
        steps.append(.advance(.zero, to: time))
        expect(from: before, to: after, context: "after \(previous), at \(Self.text(time))")
        checked = after
      case .event(let value):
        // What changed since the last check is the last action's doing; what changes next,
        // the event's.
        let before = state(beforeEventAt: time)
        expect(from: checked, to: before, context: "after \(previous), at \(Self.text(time))")
        checked = before
        steps.append(.deliver(value, time: time))
        previous = "the scripted event at \(Self.text(time))"
      }
    }
    steps.append(.advance(max(end - now, .zero), to: max(end, now)))
    finalContext = "after \(previous), at the end (\(Self.text(end)))"
    expect(from: checked, to: finalStates, context: finalContext)
  }

  /// The states just before the scripted event at `time` was handed over: after every
  /// mutation before that time, and those at that time that came before the first mutation
  /// of a stream (the event's) and before the actions sent then (which `record` sends after
  /// the events).
  private func state(beforeEventAt time: Duration) -> States {
    let nextAction = userActionTimes.first { $0.time >= time }?.sequence ?? Int.max
    var states = initialStates
    for change in changes {
      if change.time > time || change.sequence > nextAction { break }
      if change.time == time, change.isStream { break }
      states = change.states
    }
    return states
  }

  /// An app's steps: at each time, in order, the clock advanced to it, each input (a check
  /// of what changed before each action), and a check of every reactor at the end of the
  /// time.
  private mutating func planStepsAtEveryTime() {
    var times = Set(settled.map(\.time))
    times.formUnion(inputs.map(\.time))
    let atEnd = Dictionary(settled.map { ($0.time, $0.states) }, uniquingKeysWith: { $1 })
    var now = Duration.zero
    var checked: States = [:]
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
        case .action(let value, let reactor, let label, let id, let before, _):
          expect(from: checked, to: before, context: "after \(previous), at \(Self.text(time))")
          checked = before
          steps.append(.send(value, reactor: reactor, label: label, id: id, time: time))
          previous =
            "\(reactors[reactor]?.label ?? "#\(reactor)")'s \(Self.short(label)) (action \(id))"
        case .jump(let jump, let before, _):
          expect(from: checked, to: before, context: "after \(previous), at \(Self.text(time))")
          checked = before
          steps.append(.jump(jump, time: time))
          previous =
            "\(reactors[jump.reactor]?.label ?? "#\(jump.reactor)")'s jump to event \(jump.target)"
        case .event(let value):
          steps.append(.deliver(value, time: time))
          previous = "the scripted event at \(Self.text(time))"
        }
      }
      // What the inputs started runs before the time's last check.
      if sent { steps.append(.advance(.zero, to: time)) }
      if let states = atEnd[time] {
        expect(from: checked, to: states, context: "after \(previous), at \(Self.text(time))")
        checked = states
      }
    }
    finalContext = "at the end (\(Self.text(end)))"
  }

  /// Appends a check of every reactor's fields that differ between two moments: a new
  /// reactor's every field, a gone reactor's absence.
  private mutating func expect(from old: States, to new: States, context: String) {
    var checks: [Check] = []
    for reactor in Set(old.keys).union(new.keys).sorted() {
      guard let state = new[reactor] else {
        checks.append(Check(reactor: reactor, path: nil, json: nil))
        continue
      }
      checks += Self.changes(from: old[reactor], to: state).map {
        Check(reactor: reactor, path: $0.path, json: $0.json)
      }
    }
    if !checks.isEmpty { steps.append(.expect(checks, context: context)) }
  }

  /// The fields that differ between two states, in path order; every field of `new` when
  /// there is no `old` state.
  static func changes(
    from old: JSONValue?, to new: JSONValue
  ) -> [(path: StatePath, json: String?)] {
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
    return changed
  }

  /// The leaves of a state (``StatePath/leaves(of:)``) with their canonical JSON.
  private static func leaves(of value: JSONValue) -> [(path: StatePath, json: String)] {
    StatePath.leaves(of: value).map { ($0.path, $0.value.serializedString) }
  }

  /// An action's label as failure messages name it: whole when short, else its case name
  /// (`edit(…)`), so that a message stays on one line of the generated source.
  private static func short(_ label: String) -> String {
    guard label.count > 24 else { return label }
    let name = label.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
    return name.isEmpty ? String(label.prefix(23)) + "…" : name + "(…)"
  }
}
