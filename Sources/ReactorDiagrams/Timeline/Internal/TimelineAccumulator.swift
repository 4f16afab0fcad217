import ReactorTracing

/// Turns a session's events (or a trace's, read as a session of one reactor), one at a time,
/// into a timeline's columns, groups of lanes and causes across reactors.
///
/// ``TimelineDiagram/init(reader:sequences:reactors:)`` feeds it every event of its window;
/// ``TimelinePages`` feeds it one page at a time and starts a new diagram for each page,
/// carrying the effects still open over.
struct TimelineAccumulator {
  /// What has been drawn so far.
  private(set) var diagram: TimelineDiagram
  /// The reactors to draw, or `nil` for all of them.
  private let reactors: Set<Int>?
  /// Each drawn reactor's effects still open and state before its next mutation.
  private var readings: [Int: TimelineLanes.Reading] = [:]
  /// Where each drawn reactor's group is in the diagram.
  private var groupIndex: [Int: Int] = [:]

  /// Starts an empty diagram of the file whose header is `header`.
  ///
  /// - Parameters:
  ///   - header: The session's header; of format 1.x for a trace of one reactor, which is
  ///     drawn under its reactor's name with all its lanes.
  ///   - reactors: The reactors to draw, by id; `nil` for all of them.
  init(header: SessionHeader, reactors: Set<Int>?) {
    diagram = TimelineDiagram(
      title: header.metadata["app"] ?? "session", groupsReactors: !header.isTraceOfOneReactor)
    self.reactors = reactors
  }

  /// Whether `reactor` is drawn.
  func draws(_ reactor: Int) -> Bool { reactors?.contains(reactor) ?? true }

  /// Adds an event.
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - isShown: Whether it is in the window drawn.
  ///   - state: A reactor's state after the event, by its id.
  mutating func add(_ event: SessionEvent, isShown: Bool, state: (Int) -> TraceHeader.State?) {
    switch event.kind {
    case .introduced(let introduction):
      diagram.introducedReactorIDs.append(introduction.reactor)
      guard draws(introduction.reactor) else { break }
      introduce(introduction)
    case .reactor(let reactor, let kind):
      guard let index = groupIndex[reactor], var reading = readings[reactor] else { break }
      let column = diagram.columns.count
      if isShown {
        diagram.columns.append(
          TimelineDiagram.Column(sequence: event.sequence, time: event.time))
      }
      let previous = reading.previous
      diagram.groups[index].lanes.add(
        kind, column: column, isShown: isShown, state: state(reactor) ?? previous,
        reading: &reading)
      readings[reactor] = reading
      guard isShown else { break }
      switch kind {
      case .action(let action):
        if let from = action.from, from.reactor != reactor, from.action != nil {
          diagram.causes.append(
            TimelineDiagram.Cause(from: from, reactor: reactor, target: .action(action.id)))
        }
      case .mutation(let mutation):
        // A stream element a reactor published to itself crosses lanes too: from its action
        // to the stream's lane.
        if let from = mutation.from, from.action != nil {
          diagram.causes.append(
            TimelineDiagram.Cause(from: from, reactor: reactor, target: .mutation(mutation.id)))
        }
      default: break
      }
    case .gap(let gap):
      // A gap belongs to the whole session: drawn on the first reactor's lanes.
      guard isShown, let first = diagram.groups.first, var reading = readings[first.reactor]
      else { break }
      let column = diagram.columns.count
      diagram.columns.append(TimelineDiagram.Column(sequence: event.sequence, time: event.time))
      diagram.droppedEventCount += gap.droppedEvents
      diagram.groups[0].lanes.add(
        .gap(gap), column: column, isShown: true, state: .json(.null), reading: &reading)
      readings[first.reactor] = reading
    case .released(let reactor):
      // The effects it still ran end at the last column before the release.
      guard let index = groupIndex[reactor], var reading = readings[reactor] else { break }
      let last = diagram.columns.count - 1
      diagram.groups[index].lanes.release(
        at: isShown && last >= 0 ? last : nil, reading: &reading)
      readings[reactor] = reading
    case .end:
      break
    }
  }

  /// Starts the group of a reactor that is drawn.
  private mutating func introduce(_ introduction: ReactorIntroduction) {
    groupIndex[introduction.reactor] = diagram.groups.count
    if !diagram.groupsReactors { diagram.title = introduction.type }
    let type = introduction.shortType
    diagram.groups.append(
      TimelineDiagram.Group(
        reactor: introduction.reactor,
        title: introduction.name.map { "\($0) · #\(introduction.reactor) \(type)" }
          ?? "\(type) #\(introduction.reactor)"))
    readings[introduction.reactor] = TimelineLanes.Reading(previous: introduction.initialState)
  }

  /// The diagram with the effects still open added, drawn as still running, or as `ending`
  /// says when it knows how one ends later.
  ///
  /// - Parameter ending: Where and how an open effect of a reactor ends beyond the page: with
  ///   an outcome, or (`nil`) by the reactor's release.
  /// - Returns: The diagram of what was added since the start (or the page's start).
  func finished(
    ending: (_ reactor: Int, TimelineLanes.Effect) -> (end: Int, outcome: TraceEvent.Outcome?)? =
      { _, _ in nil }
  ) -> TimelineDiagram {
    var diagram = diagram
    for index in diagram.groups.indices {
      let reactor = diagram.groups[index].reactor
      guard let reading = readings[reactor] else { continue }
      diagram.groups[index].lanes.finish(
        reading, hasColumns: !diagram.columns.isEmpty, ending: { ending(reactor, $0) })
    }
    return diagram
  }

  /// Starts an empty page whose column 0 is the current diagram's column `offset`: the groups
  /// stay, emptied; the effects still open keep their start, counted from the new column 0
  /// (so negative).
  mutating func startPage(at offset: Int) {
    diagram.columns = []
    diagram.causes = []
    for index in diagram.groups.indices { diagram.groups[index].lanes = TimelineLanes() }
    readings = readings.mapValues { reading in
      var reading = reading
      reading.open = reading.open.mapValues { effect in
        var effect = effect
        effect.start = effect.start.map { $0 - offset }
        return effect
      }
      return reading
    }
  }
}
