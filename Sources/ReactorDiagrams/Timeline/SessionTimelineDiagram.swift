public import ReactorTracing

/// A session drawn along time: a group of lanes per reactor (its actions, its effects, the
/// streams it merged and its state changes), sharing one time axis, with dashed orange arrows
/// for causes that cross reactors or come back through a stream.
///
/// Each group reads like the ``TimelineDiagram`` of its reactor alone, under the reactor's
/// name and id; a group leaves out the action and state lanes when nothing happens on them.
/// Reactors with nothing to show on a page are collapsed into one line, `idle`. An arrow
/// leads from the action of one reactor to the action it sent to another, and to each
/// mutation that a stream element it published caused, in another reactor or in itself.
///
/// ```swift
/// let timeline = try SessionTimelineDiagram(path: "app.session.jsonl", reactors: [1, 2])
/// let svg = try GraphvizRenderer().render(timeline.dotGraph(), engine: .nop, format: .svg)
/// ```
public struct SessionTimelineDiagram: Sendable, Hashable {
  /// One reactor's lanes.
  struct Group: Sendable, Hashable {
    var reactor: Int
    /// `list · #1 TaskAppListReactor`, or `TaskCellReactor #3`.
    var title: String
    var timeline: TimelineDiagram
  }

  /// What a cause across reactors leads to.
  enum Target: Sendable, Hashable {
    case action(Int)
    case mutation(Int)
  }

  /// A cause across reactors: from one reactor's action to another's action or mutation.
  struct Cause: Sendable, Hashable {
    var from: TraceEvent.ReactorOrigin
    var reactor: Int
    var target: Target
  }

  /// What the diagram is of: the session's app, or `session`.
  public let title: String

  var columns: [TimelineDiagram.Column] = []
  var groups: [Group] = []
  var causes: [Cause] = []

  /// How many events the diagram shows.
  public var eventCount: Int { columns.count }

  /// How many events the recorder dropped in the gaps shown.
  public private(set) var droppedEventCount = 0

  /// Every reactor introduced up to the window's end, drawn or not, in the order they were.
  public private(set) var introducedReactorIDs: [Int] = []

  /// Streams a session (or a trace of one reactor, as a session of one), keeping the events
  /// in `sequences` of the reactors in `reactors`.
  ///
  /// - Parameters:
  ///   - reader: A reader that has read no event yet and verifies states (the default).
  ///   - sequences: The events to show, by `seq`; `nil` for all of them.
  ///   - reactors: The reactors to show, by id; `nil` for all of them.
  /// - Throws: ``TraceReadError`` when the session cannot be read.
  public init(
    reader: SessionReader, sequences: ClosedRange<Int>? = nil, reactors: Set<Int>? = nil
  ) throws(TraceReadError) {
    title = reader.header.metadata["app"] ?? "session"
    let window = sequences ?? Int.min...Int.max
    var readings: [Int: TimelineDiagram.Reading] = [:]
    var groupIndex: [Int: Int] = [:]
    while let event = try reader.next() {
      if event.sequence > window.upperBound { break }
      let isShown = window.contains(event.sequence)
      switch event.kind {
      case .introduced(let introduction):
        introducedReactorIDs.append(introduction.reactor)
        guard reactors?.contains(introduction.reactor) ?? true else { break }
        groupIndex[introduction.reactor] = groups.count
        let type = SequenceDiagram.shortType(introduction.type)
        groups.append(
          Group(
            reactor: introduction.reactor,
            title: introduction.name.map { "\($0) · #\(introduction.reactor) \(type)" }
              ?? "\(type) #\(introduction.reactor)",
            timeline: TimelineDiagram(reactor: introduction.type)))
        readings[introduction.reactor] = TimelineDiagram.Reading(
          previous: introduction.initialState)
      case .reactor(let reactor, let kind):
        guard let index = groupIndex[reactor], var reading = readings[reactor] else { break }
        let column = columns.count
        if isShown {
          columns.append(TimelineDiagram.Column(sequence: event.sequence, time: event.time))
        }
        let state = reader.currentState(of: reactor) ?? reading.previous
        groups[index].timeline.add(
          TraceEvent(sequence: event.sequence, time: event.time, kind: kind), column: column,
          isShown: isShown, state: state, reading: &reading)
        readings[reactor] = reading
        guard isShown else { break }
        switch kind {
        case .action(let action):
          if let from = action.from, from.reactor != reactor, from.action != nil {
            causes.append(Cause(from: from, reactor: reactor, target: .action(action.id)))
          }
        case .mutation(let mutation):
          // A stream element a reactor published to itself crosses lanes too: from its
          // action to the stream's lane.
          if let from = mutation.from, from.action != nil {
            causes.append(Cause(from: from, reactor: reactor, target: .mutation(mutation.id)))
          }
        default: break
        }
      case .gap(let gap):
        // A gap belongs to the whole session: drawn on the first reactor's lanes.
        guard isShown, !groups.isEmpty, var reading = readings[groups[0].reactor] else { break }
        let column = columns.count
        columns.append(TimelineDiagram.Column(sequence: event.sequence, time: event.time))
        droppedEventCount += gap.droppedEvents
        groups[0].timeline.add(
          TraceEvent(sequence: event.sequence, time: event.time, kind: .gap(gap)),
          column: column, isShown: true, state: .json(.null), reading: &reading)
        readings[groups[0].reactor] = reading
      case .released, .end:
        break
      }
    }
    for index in groups.indices {
      groups[index].timeline.columns = columns
      if let reading = readings[groups[index].reactor] {
        groups[index].timeline.finish(reading)
      }
    }
  }

  /// Reads the session (or trace of one reactor) at `path`.
  ///
  /// - Parameters:
  ///   - path: A session or trace file.
  ///   - sequences: The events to show, by `seq`; `nil` for all of them.
  ///   - reactors: The reactors to show, by id; `nil` for all of them.
  /// - Throws: ``TraceReadError`` when the file cannot be read.
  public init(
    path: String, sequences: ClosedRange<Int>? = nil, reactors: Set<Int>? = nil
  ) throws(TraceReadError) {
    try self.init(reader: SessionReader(path: path), sequences: sequences, reactors: reactors)
  }

  /// The ids of the reactors the diagram draws, in the order they entered the session.
  public var reactorIDs: [Int] { groups.map(\.reactor) }

  /// Checks, before any DOT is built, that every page is within `limit`.
  ///
  /// - Parameters:
  ///   - eventsPerPage: The page size the diagram will be split into, or `nil` for one page
  ///     of every event.
  ///   - limit: The most events a page may hold.
  /// - Throws: ``TimelineDiagramError/tooLarge(events:eventsPerPage:limit:)``.
  public func checkSize(
    eventsPerPage: Int?, limit: TimelineSizeLimit = .standard
  ) throws(TimelineDiagramError) {
    let largestPage = min(eventsPerPage ?? eventCount, eventCount)
    guard largestPage <= limit.maximumEventsPerPage else {
      throw .tooLarge(events: eventCount, eventsPerPage: eventsPerPage, limit: limit)
    }
  }
}
