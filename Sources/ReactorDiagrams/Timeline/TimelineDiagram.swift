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
    case mutation(label: String, cause: TraceEvent.Cause)
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

  /// An empty diagram, for ``TimelineAccumulator`` to fill.
  init(reactor: String) {
    self.reactor = reactor
  }

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
    let window = sequences ?? Int.min...Int.max
    var accumulator = TimelineAccumulator(
      reactor: reader.header.reactor, initialState: reader.header.initialState)
    while let event = try reader.next() {
      if event.sequence > window.upperBound { break }
      accumulator.add(
        event, isShown: window.contains(event.sequence), stateAfter: reader.currentState)
    }
    self = accumulator.finished()
  }
}
