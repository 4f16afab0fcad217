public import ReactorTracing

/// A session drawn as a sequence diagram: who sent what to whom, time running downward.
///
/// Participants stand along the top: the user, each reactor (by name, or by type, and its
/// instance id) and each named stream or service that reactors merged. Each event is a row:
/// actions are messages from the user, from another reactor or from a stream; an effect is
/// an activation box on its reactor's lifeline from its start to its end, closed by its
/// outcome (finished, cancelled, failed or still running) or by its reactor's release (drawn
/// as cancelled: "still running when the reactor was released"); a mutation is a self-message with
/// what it changed in a note beside it, or, when a stream element caused it, a message from
/// the effect that published the element to the service and on from the service to the
/// reactor that merged it. A reactor created by another one appears where it was created,
/// with an arrow from its parent; a released one's lifeline ends in a cross.
///
/// Messages that belong together are joined: an action's message leads to the effects it
/// started, an effect's thread runs down its activation box through everything it sent and
/// published, so that following the arrows from a tap reaches every change it caused, in
/// any reactor.
///
/// Coordinates are computed here and pinned, for the ``LayoutEngine/nop`` engine.
///
/// ```swift
/// let sequence = try SequenceDiagram(reader: SessionReader(path: "app.session.jsonl"))
/// let svg = try GraphvizRenderer().render(sequence.dotGraph(), engine: .nop, format: .svg)
/// ```
public struct SequenceDiagram: Sendable, Hashable {
  /// Someone who sends or receives messages: a column of the diagram.
  enum Participant: Sendable, Hashable {
    /// Whoever sent the actions that came from no reactor.
    case user
    /// A reactor, by id.
    case reactor(Int)
    /// A named stream or service that reactors merged.
    case stream(String)
    /// Reactors left out of the diagram, when a message came from one of them.
    case others
  }

  /// A reactor as its column shows it.
  struct Reactor: Sendable, Hashable {
    var id: Int
    var name: String?
    /// The type without its module: `TaskCellReactor`.
    var type: String
    var parent: Int?
  }

  /// What one row shows.
  enum Step: Sendable, Hashable {
    /// A reactor entered the session (by its parent, when it has one).
    case created(reactor: Int, parent: Participant?)
    case released(reactor: Int)
    case action(
      reactor: Int, id: Int, label: String, sender: Participant, from: TraceEvent.ReactorOrigin?)
    case effectStarted(reactor: Int, effect: Int, action: Int, name: String?)
    case effectEnded(reactor: Int, effect: Int, outcome: TraceEvent.Outcome)
    /// A mutation; `publisher` is the participant that published the stream element behind
    /// it, when a stream caused it.
    case mutation(
      reactor: Int, id: Int, label: String, cause: TraceEvent.Cause,
      from: TraceEvent.ReactorOrigin?, publisher: Participant?, changes: [String])
    case streamEnded(reactor: Int, stream: String, error: String?)
    case gap(dropped: Int)
  }

  /// One event.
  struct Row: Sendable, Hashable {
    var sequence: Int
    var time: Duration
    var step: Step
  }

  /// An effect that was running before the first row.
  struct OpenEffect: Sendable, Hashable {
    var reactor: Int
    var effect: Int
    var action: Int
    var name: String?
  }

  /// What the diagram is of: the session's app, or `session`.
  public let title: String

  var participants: [Participant] = []
  var reactors: [Int: Reactor] = [:]
  var rows: [Row] = []
  /// Effects running when the window opened, in the order they started.
  var openAtStart: [OpenEffect] = []
  /// Reactors alive when the window opened, in the order they were introduced.
  var aliveAtStart: [Int] = []

  /// How many events the diagram shows.
  public var eventCount: Int { rows.count }

  /// Every reactor introduced up to the window's end, drawn or not, in the order they were.
  public private(set) var introducedReactorIDs: [Int] = []

  /// How many events the recorder dropped in the gaps shown.
  public private(set) var droppedEventCount = 0

  /// Streams a session (or a trace of one reactor, as a session of one), keeping the events
  /// in `sequences` of the reactors in `reactors`.
  ///
  /// Reading stops after the window's last event. Messages from reactors left out come from
  /// one participant, `other reactors`.
  ///
  /// - Parameters:
  ///   - reader: A reader that has read no event yet and verifies states (the default).
  ///   - sequences: The events to show, by `seq`; `nil` for all of them.
  ///   - reactors: The reactors to show, by id; `nil` for all of them.
  /// - Throws: ``TraceReadError`` when the session cannot be read.
  public init(
    reader: SessionReader, sequences: ClosedRange<Int>? = nil, reactors: Set<Int>? = nil
  ) throws(TraceReadError) {
    let shown = reactors
    title = reader.header.metadata["app"] ?? "session"
    let window = sequences ?? Int.min...Int.max
    var previous: [Int: TraceHeader.State] = [:]
    var introduced: [Int: Reactor] = [:]
    var alive: [Int] = []
    var running: [OpenEffect] = []
    var streamSet: Set<String> = []
    var streams: [String] = []
    var usesUser = false
    var usesOthers = false
    func isShown(_ reactor: Int) -> Bool { shown?.contains(reactor) ?? true }
    func noteStream(_ stream: String) {
      if streamSet.insert(stream).inserted { streams.append(stream) }
    }
    func participant(for origin: TraceEvent.ReactorOrigin?) -> Participant {
      guard let origin else {
        usesUser = true
        return .user
      }
      if isShown(origin.reactor) { return .reactor(origin.reactor) }
      usesOthers = true
      return .others
    }
    while let event = try reader.next() {
      if event.sequence > window.upperBound { break }
      let inWindow = window.contains(event.sequence)
      var step: Step?
      switch event.kind {
      case .introduced(let introduction):
        let reactor = Reactor(
          id: introduction.reactor, name: introduction.name,
          type: introduction.shortType, parent: introduction.parent)
        introduced[reactor.id] = reactor
        introducedReactorIDs.append(reactor.id)
        previous[reactor.id] = introduction.initialState
        alive.append(reactor.id)
        if inWindow, isShown(reactor.id) {
          step = .created(
            reactor: reactor.id,
            parent: introduction.parent.map { participant(for: .init(reactor: $0)) })
        }
      case .released(let reactor):
        alive.removeAll { $0 == reactor }
        running.removeAll { $0.reactor == reactor }
        if inWindow, isShown(reactor) { step = .released(reactor: reactor) }
      case .reactor(let reactor, let kind):
        switch kind {
        case .action(let action):
          var sender: Participant
          if case .stream(let name) = action.source {
            sender = .stream(name)
            if inWindow, isShown(reactor) { noteStream(name) }
          } else {
            sender = .user
          }
          guard inWindow, isShown(reactor) else { break }
          if case .sent = action.source { sender = participant(for: action.from) }
          step = .action(
            reactor: reactor, id: action.id, label: action.label, sender: sender, from: action.from)
        case .effectStarted(let start):
          running.append(
            OpenEffect(
              reactor: reactor, effect: start.effect, action: start.action, name: start.name))
          if inWindow, isShown(reactor) {
            step = .effectStarted(
              reactor: reactor, effect: start.effect, action: start.action, name: start.name)
          }
        case .effectEnded(let end):
          running.removeAll { $0.reactor == reactor && $0.effect == end.effect }
          if inWindow, isShown(reactor) {
            step = .effectEnded(reactor: reactor, effect: end.effect, outcome: end.outcome)
          }
        case .mutation(let mutation):
          let state = reader.currentState(of: reactor) ?? previous[reactor] ?? .json(.null)
          defer { previous[reactor] = state }
          guard inWindow, isShown(reactor) else { break }
          var publisher: Participant?
          if case .stream(let name) = mutation.cause {
            noteStream(name)
            if let from = mutation.from { publisher = participant(for: from) }
          }
          let changes = StateChanges.lines(
            from: previous[reactor] ?? state, to: state, change: mutation.state)
          step = .mutation(
            reactor: reactor, id: mutation.id, label: mutation.label, cause: mutation.cause,
            from: mutation.from, publisher: publisher, changes: changes)
        case .jump(let jump):
          let state = reader.currentState(of: reactor) ?? jump.state
          defer { previous[reactor] = state }
          guard inWindow, isShown(reactor) else { break }
          // Drawn as a message from outside the app that sets the state: the page or the
          // client is a participant of its own, as a stream is.
          let sender = "external " + (jump.external ?? "command")
          noteStream(sender)
          step = .mutation(
            reactor: reactor, id: 0, label: "jump to event \(jump.target)",
            cause: .stream(sender), from: nil, publisher: nil,
            changes: StateChanges.lines(
              from: previous[reactor] ?? state, to: state, change: jump.stateChange))
        case .streamEnded(let end):
          guard inWindow, isShown(reactor) else { break }
          noteStream(end.stream)
          step = .streamEnded(reactor: reactor, stream: end.stream, error: end.error)
        case .gap, .end:
          break
        }
      case .gap(let gap):
        if inWindow {
          droppedEventCount += gap.droppedEvents
          step = .gap(dropped: gap.droppedEvents)
        }
      case .end:
        break
      }
      if rows.isEmpty, inWindow {
        // What was going on when the window opened.
        aliveAtStart = alive.filter { isShown($0) }
        if case .introduced(let introduction) = event.kind {
          aliveAtStart.removeAll { $0 == introduction.reactor }
        }
        openAtStart = running.filter {
          guard isShown($0.reactor) else { return false }
          if case .reactor(let reactor, .effectStarted(let start)) = event.kind {
            return !(reactor == $0.reactor && start.effect == $0.effect)
          }
          return true
        }
      }
      if let step { rows.append(Row(sequence: event.sequence, time: event.time, step: step)) }
    }
    // Columns: the user, the reactors in the order they entered, others, then streams.
    if usesUser { participants.append(.user) }
    let ids = introduced.keys.sorted().filter { id in
      isShown(id)
        && (aliveAtStart.contains(id)
          || rows.contains {
            if case .created(let reactor, _) = $0.step { return reactor == id }
            return false
          })
    }
    for id in ids {
      self.reactors[id] = introduced[id]
      participants.append(.reactor(id))
    }
    if usesOthers { participants.append(.others) }
    participants += streams.map(Participant.stream)
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
}

extension SequenceDiagram {
  /// The ids of the reactors the diagram draws, in the order they entered the session.
  public var reactorIDs: [Int] {
    participants.compactMap {
      if case .reactor(let id) = $0 { return id }
      return nil
    }
  }

  /// Checks, before any DOT is built, that every page is within `limit`.
  ///
  /// - Parameters:
  ///   - eventsPerPage: The page size the diagram will be split into, or `nil` for one page
  ///     of every event.
  ///   - limit: The most events a page may hold (the timeline's limit by default).
  /// - Throws: ``SequenceDiagramError/tooLarge(events:eventsPerPage:limit:)``.
  public func checkSize(
    eventsPerPage: Int?, limit: TimelineSizeLimit = .standard
  ) throws(SequenceDiagramError) {
    let largestPage = min(eventsPerPage ?? eventCount, eventCount)
    guard largestPage <= limit.maximumEventsPerPage else {
      throw .tooLarge(events: eventCount, eventsPerPage: eventsPerPage, limit: limit)
    }
  }
}
