public import ReactorTracing

/// A small session written by hand, as a session recorder of a task app would write it: a
/// list (reactor 1) and an edit screen (reactor 2) over a shared service, and a cell
/// (reactor 3) that the list creates for the saved task and that is released again.
///
/// Its causes cross reactors both ways: the list's `add` comes from the edit reactor's save
/// effect through the service's stream, and the list's `remove` action was sent by the cell.
public enum SessionFixture {
  /// A step of the fixture: what a reactor did, its state after a mutation.
  private enum Step {
    case introduce(Int, String, String, JSONValue, parent: Int?, during: Int?)
    case event(Int, TraceEvent.Kind)
    case mutation(
      Int, id: Int, String, TraceEvent.Cause, from: TraceEvent.ReactorOrigin?, JSONValue)
    case release(Int)
    case end
  }

  /// The states each reactor type starts from.
  public static let listState: JSONValue = ["titles": []]
  /// The edit screen's initial state.
  public static let editState: JSONValue = ["isSaving": false, "title": "milk"]
  /// The cell's initial state.
  public static let cellState: JSONValue = ["done": false, "title": "milk"]

  /// The session.
  /// - Parameter origin: The origin the list's stream mutation records (reactor 2's action 1
  ///   and effect 1 unless a test breaks it).
  /// - Returns: The session.
  public static func session(
    origin: TraceEvent.ReactorOrigin? = TraceEvent.ReactorOrigin(reactor: 2, action: 1, effect: 1)
  ) -> SessionTrace {
    let steps: [Step] = [
      .introduce(1, "TaskApp.ListReactor", "list", listState, parent: nil, during: nil),
      .introduce(2, "TaskApp.EditReactor", "edit", editState, parent: nil, during: nil),
      .event(
        2, .action(TraceEvent.Action(id: 1, label: "save", value: ["save": [:]], source: .sent))),
      .event(2, .effectStarted(TraceEvent.EffectStart(effect: 1, action: 1, name: "save"))),
      .mutation(
        2, id: 1, "setSaving(true)", .effect(1, action: 1), from: nil,
        ["isSaving": true, "title": "milk"]),
      .mutation(
        1, id: 1, "add(\"milk\")", .stream("taskService"), from: origin, ["titles": ["milk"]]),
      .introduce(3, "TaskApp.CellReactor", "cell", cellState, parent: 1, during: 6),
      .mutation(
        2, id: 2, "setSaving(false)", .effect(1, action: 1), from: nil,
        ["isSaving": false, "title": "milk"]),
      .event(2, .effectEnded(TraceEvent.EffectEnd(effect: 1, outcome: .finished))),
      .event(
        3, .action(TraceEvent.Action(id: 1, label: "delete", value: ["delete": [:]], source: .sent))
      ),
      .event(
        1,
        .action(
          TraceEvent.Action(
            id: 1, label: "remove(0)", value: ["remove": ["_0": 0]], source: .sent,
            from: TraceEvent.ReactorOrigin(reactor: 3, action: 1)))),
      .mutation(1, id: 2, "removed(0)", .action(1), from: nil, ["titles": []]),
      .release(3),
      .end,
    ]
    var events: [SessionEvent] = []
    for (index, step) in steps.enumerated() {
      let sequence = index + 1
      let time = Duration.milliseconds(10 * index)
      let kind: SessionEvent.Kind
      switch step {
      case .introduce(let id, let type, let name, let state, let parent, let during):
        let initial = TraceHeader.State.json(state)
        kind = .introduced(
          ReactorIntroduction(
            reactor: id, type: type, name: name, schema: schema, initialState: initial,
            initialStateHash: initial.hash, parent: parent, createdDuring: during))
      case .event(let reactor, let event):
        kind = .reactor(reactor, event)
      case .mutation(let reactor, let id, let label, let cause, let from, let state):
        kind = .reactor(
          reactor,
          .mutation(
            TraceEvent.Mutation(
              id: id, label: label, value: nil, cause: cause, state: .snapshot(state),
              stateHash: TraceHeader.State.json(state).hash, from: from)))
      case .release(let reactor):
        kind = .released(reactor: reactor)
      case .end:
        kind = .end(SessionEvent.End(observedEvents: index, droppedEvents: 0))
      }
      events.append(SessionEvent(sequence: sequence, time: time, kind: kind))
    }
    return SessionTrace(
      header: SessionHeader(
        recorder: "hand-written",
        clock: TraceHeader.Clock(name: "TestClock<Duration>", origin: nil),
        metadata: ["app": "TaskApp"]),
      events: events)
  }

  /// A schema for the fixture's reactors, by name only: a structural replay needs no shapes.
  private static let schema = TraceSchema(
    action: TypeFingerprint(name: "Action", isCodable: true, shape: nil),
    mutation: TypeFingerprint(name: "Mutation", isCodable: true, shape: nil),
    state: TypeFingerprint(name: "State", isCodable: true, shape: nil))
}
