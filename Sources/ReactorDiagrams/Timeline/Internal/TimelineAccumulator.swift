import ReactorTracing

/// Turns a trace's events, one at a time, into a timeline's columns, marks and effects.
///
/// ``TimelinePages`` feeds it one page at a time and starts a new ``diagram`` for each page,
/// carrying the effects still open over; what each event draws is
/// ``TimelineDiagram/add(_:column:isShown:state:reading:)``'s.
struct TimelineAccumulator {
  /// What has been drawn so far.
  var diagram: TimelineDiagram
  /// The effects still open and the state before the next mutation.
  private var reading: TimelineDiagram.Reading

  init(reactor: String, initialState: TraceHeader.State) {
    diagram = TimelineDiagram(reactor: reactor)
    reading = TimelineDiagram.Reading(previous: initialState)
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
    diagram.add(event, column: column, isShown: isShown, state: state, reading: &reading)
  }

  /// The diagram with the effects still open added, drawn as still running, or as `ending`
  /// says when it knows how one ends later.
  func finished(
    ending: (TimelineDiagram.Effect) -> (end: Int, outcome: TraceEvent.Outcome)? = { _ in nil }
  ) -> TimelineDiagram {
    var diagram = diagram
    for var effect in reading.open.values where effect.start != nil || !diagram.columns.isEmpty {
      if let later = ending(effect) {
        effect.end = later.end
        effect.outcome = later.outcome
      }
      diagram.effects.append(effect)
    }
    // Effects that started before the page have negative starts: they keep their order.
    diagram.effects.sort { ($0.start ?? .min, $0.id) < ($1.start ?? .min, $1.id) }
    return diagram
  }

  /// Starts an empty diagram whose column 0 is the current diagram's column `offset`; the
  /// effects still open keep their start, counted from the new column 0 (so negative).
  mutating func startPage(at offset: Int) {
    diagram = TimelineDiagram(reactor: diagram.reactor)
    reading.open = reading.open.mapValues { effect in
      var effect = effect
      effect.start = effect.start.map { $0 - offset }
      return effect
    }
  }
}
