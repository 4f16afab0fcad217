public import ReactorTracing

/// A trace drawn along time: one lane for actions, lanes for concurrent effects, a lane per
/// external stream, and the state changes underneath.
///
/// Time flows left to right, one column per event, so simultaneous events stay apart and
/// order is exact; columns are spaced by the time between their events, long idle periods
/// are compressed into a marked gap, and a time axis with round ticks runs along the top.
/// Each box is sized to its text with Helvetica's metrics and wraps only between tokens, so
/// no text leaves its box. Each effect is a bar from its start to its end, drawn by outcome:
/// finished (green), cancelled (grey, dashed), failed (red, bold) or still running (orange,
/// dotted), with a legend. Effects share a lane when they do not overlap. Mutations sit on
/// their effect's lane, on the action lane when `mutate` returned them synchronously, or on
/// their stream's lane; arrows lead from each action to its mutations, and the bottom lane
/// says what each mutation changed (`isLoading: false → true`, `repos: +3 items`). The title
/// and the lane names sit at the left.
///
/// Coordinates are computed here and pinned (`pos="x,y!"`), so the diagram is laid out with
/// the ``LayoutEngine/nop`` engine in time linear in its size.
///
/// ```swift
/// let timeline = try TimelineDiagram(path: "feed.trace.jsonl", sequences: 1...200)
/// for page in timeline.pages(eventsPerPage: 100) {
///   let svg = try GraphvizRenderer().render(page, engine: .nop, format: .svg)
/// }
/// ```
public struct TimelineDiagram: Sendable, Hashable {
  /// One event's place on the time axis.
  struct Column: Sendable, Hashable {
    var sequence: Int
    var time: Duration
  }

  /// Something drawn at one column.
  enum Mark: Sendable, Hashable {
    case action(id: Int, label: String, stream: String?)
    case mutation(id: Int, label: String, cause: TraceEvent.Cause)
    /// What a mutation changed, drawn under it on the state lane.
    case stateChange(changes: [String])
    case streamEnd(stream: String, error: String?)
    /// The recorder dropped this many events here.
    case gap(dropped: Int)
  }

  /// A mark and its column.
  struct Placed: Sendable, Hashable {
    var column: Int
    var mark: Mark
  }

  /// An effect's lifetime within the window.
  struct Effect: Sendable, Hashable {
    var id: Int
    var name: String?
    var action: Int
    /// `nil` when it started before the window.
    var start: Int?
    /// `nil` when it had not ended by the window's end.
    var end: Int?
    var outcome: TraceEvent.Outcome?
  }

  /// The reactor the trace records.
  public let reactor: String

  var columns: [Column] = []
  var marks: [Placed] = []
  var effects: [Effect] = []
  var streams: [String] = []

  /// How many events the diagram shows.
  public var eventCount: Int { columns.count }

  /// How many events the recorder dropped in the gaps shown (``TraceEvent/Gap``).
  ///
  /// The diagram is of an incomplete trace when it is not 0. Each gap is drawn as a red
  /// marker on the action lane.
  public internal(set) var droppedEventCount = 0

  /// Reads the trace at `path`.
  ///
  /// - Parameters:
  ///   - path: A trace file.
  ///   - sequences: The events to show, by `seq`; `nil` for all of them.
  /// - Throws: ``TraceReadError`` when the trace cannot be read.
  public init(path: String, sequences: ClosedRange<Int>? = nil) throws(TraceReadError) {
    try self.init(reader: TraceReader(path: path), sequences: sequences)
  }

  /// Streams a trace, keeping only the events in `sequences`.
  ///
  /// Reading stops after the window's last event. Effects that started before the window are
  /// drawn from its left edge.
  ///
  /// - Parameters:
  ///   - reader: A reader that has read no event yet and verifies states (the default).
  ///   - sequences: The events to show, by `seq`; `nil` for all of them.
  /// - Throws: ``TraceReadError`` when the trace cannot be read.
  public init(reader: TraceReader, sequences: ClosedRange<Int>? = nil) throws(TraceReadError) {
    reactor = reader.header.reactor
    let window = sequences ?? Int.min...Int.max
    var reading = Reading(previous: reader.header.initialState)
    while let event = try reader.next() {
      if event.sequence > window.upperBound { break }
      let isShown = window.contains(event.sequence)
      let column = columns.count
      var isEnd = false
      if case .end = event.kind { isEnd = true }
      if isShown && !isEnd {
        columns.append(Column(sequence: event.sequence, time: event.time))
      }
      add(event, column: column, isShown: isShown, state: reader.currentState, reading: &reading)
    }
    finish(reading)
  }

  /// A diagram of one reactor of a session, filled in by ``add(_:column:isShown:state:reading:)``
  /// on columns shared with the session's other reactors.
  init(reactor: String) {
    self.reactor = reactor
  }

  /// What reading a trace needs to remember between events.
  struct Reading {
    /// Effects started and not yet ended, by id.
    var open: [Int: Effect] = [:]
    /// The state before the next mutation.
    var previous: TraceHeader.State
  }

  /// Adds what one event draws at `column`.
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - column: Its column, when shown.
  ///   - isShown: Whether the event is in the window.
  ///   - state: The reactor's state after the event.
  ///   - reading: What earlier events left open.
  mutating func add(
    _ event: TraceEvent, column: Int, isShown: Bool, state: @autoclosure () -> TraceHeader.State,
    reading: inout Reading
  ) {
    switch event.kind {
    case .action(let action):
      guard isShown else { break }
      var stream: String?
      if case .stream(let name) = action.source { stream = name }
      marks.append(
        Placed(column: column, mark: .action(id: action.id, label: action.label, stream: stream)))
    case .effectStarted(let start):
      reading.open[start.effect] = Effect(
        id: start.effect, name: start.name, action: start.action,
        start: isShown ? column : nil, end: nil, outcome: nil)
    case .effectEnded(let end):
      guard var effect = reading.open.removeValue(forKey: end.effect), isShown else { break }
      effect.end = column
      effect.outcome = end.outcome
      effects.append(effect)
    case .mutation(let mutation):
      let state = state()
      defer { reading.previous = state }
      guard isShown else { break }
      if case .stream(let name) = mutation.cause { noteStream(name) }
      let changes = StateChanges.lines(from: reading.previous, to: state, change: mutation.state)
      marks.append(
        Placed(
          column: column,
          mark: .mutation(id: mutation.id, label: mutation.label, cause: mutation.cause)))
      marks.append(Placed(column: column, mark: .stateChange(changes: changes)))
    case .streamEnded(let end):
      guard isShown else { break }
      noteStream(end.stream)
      marks.append(Placed(column: column, mark: .streamEnd(stream: end.stream, error: end.error)))
    case .gap(let gap):
      guard isShown else { break }
      droppedEventCount += gap.droppedEvents
      marks.append(Placed(column: column, mark: .gap(dropped: gap.droppedEvents)))
    case .end:
      break
    }
  }

  /// Adds the effects still running at the window's end, drawn to its right edge.
  mutating func finish(_ reading: Reading) {
    effects += reading.open.values.filter { $0.start != nil || !columns.isEmpty }
    effects.sort { ($0.start ?? -1, $0.id) < ($1.start ?? -1, $1.id) }
  }

  private mutating func noteStream(_ stream: String) {
    if !streams.contains(stream) { streams.append(stream) }
  }
}
