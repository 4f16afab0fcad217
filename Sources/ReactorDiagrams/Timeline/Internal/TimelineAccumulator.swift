import ReactorTracing

/// Turns a trace's events, one at a time, into a timeline's columns, marks and effects.
///
/// ``TimelineDiagram`` feeds it every event of the trace; ``TimelinePages`` feeds it one page
/// at a time and starts a new ``diagram`` for each page, carrying the effects still open over.
struct TimelineAccumulator {
  /// What has been drawn so far.
  var diagram: TimelineDiagram
  /// Effects started and not ended yet, by id.
  var open: [Int: TimelineDiagram.Effect] = [:]
  /// The state before the next event.
  private var previous: TraceHeader.State
  private var streamSet: Set<String> = []

  init(reactor: String, initialState: TraceHeader.State) {
    diagram = TimelineDiagram(reactor: reactor)
    previous = initialState
  }

  /// Whether `event` takes a column of its own when shown: every kind but the end line.
  static func takesColumn(_ event: TraceEvent) -> Bool {
    if case .end = event.kind { false } else { true }
  }

  /// Adds an event; `isShown` says whether it is in the window drawn, `state` is the state
  /// after it.
  mutating func add(_ event: TraceEvent, isShown: Bool, stateAfter state: TraceHeader.State) {
    let column = diagram.columns.count
    if isShown && Self.takesColumn(event) {
      diagram.columns.append(TimelineDiagram.Column(sequence: event.sequence, time: event.time))
    }
    switch event.kind {
    case .action(let action):
      guard isShown else { break }
      var stream: String?
      if case .stream(let name) = action.source { stream = name }
      diagram.marks.append(
        .init(column: column, mark: .action(id: action.id, label: action.label, stream: stream)))
    case .effectStarted(let start):
      open[start.effect] = TimelineDiagram.Effect(
        id: start.effect, name: start.name, action: start.action,
        start: isShown ? column : nil, end: nil, outcome: nil)
    case .effectEnded(let end):
      guard var effect = open.removeValue(forKey: end.effect), isShown else { break }
      effect.end = column
      effect.outcome = end.outcome
      diagram.effects.append(effect)
    case .mutation(let mutation):
      defer { previous = state }
      guard isShown else { break }
      if case .stream(let name) = mutation.cause { noteStream(name) }
      let changes = StateChanges.lines(from: previous, to: state, change: mutation.state)
      diagram.marks.append(
        .init(column: column, mark: .mutation(label: mutation.label, cause: mutation.cause)))
      diagram.marks.append(.init(column: column, mark: .stateChange(changes: changes)))
    case .streamEnded(let end):
      guard isShown else { break }
      noteStream(end.stream)
      diagram.marks.append(
        .init(column: column, mark: .streamEnd(stream: end.stream, error: end.error)))
    case .gap(let gap):
      guard isShown else { break }
      diagram.droppedEventCount += gap.droppedEvents
      diagram.marks.append(.init(column: column, mark: .gap(dropped: gap.droppedEvents)))
    case .end:
      break
    }
  }

  /// The diagram with the effects still open added, drawn as still running, or as `ending`
  /// says when it knows how one ends later.
  func finished(
    ending: (TimelineDiagram.Effect) -> (end: Int, outcome: TraceEvent.Outcome)? = { _ in nil }
  ) -> TimelineDiagram {
    var diagram = diagram
    for var effect in open.values where effect.start != nil || !diagram.columns.isEmpty {
      if let later = ending(effect) {
        effect.end = later.end
        effect.outcome = later.outcome
      }
      diagram.effects.append(effect)
    }
    diagram.effects.sort { ($0.start ?? .min, $0.id) < ($1.start ?? .min, $1.id) }
    return diagram
  }

  /// Starts an empty diagram whose column 0 is the current diagram's column `offset`; the
  /// effects still open keep their start, counted from the new column 0 (so negative).
  mutating func startPage(at offset: Int) {
    diagram = TimelineDiagram(reactor: diagram.reactor)
    open = open.mapValues { effect in
      var effect = effect
      effect.start = effect.start.map { $0 - offset }
      return effect
    }
  }

  private mutating func noteStream(_ stream: String) {
    if streamSet.insert(stream).inserted { diagram.streams.append(stream) }
  }
}
