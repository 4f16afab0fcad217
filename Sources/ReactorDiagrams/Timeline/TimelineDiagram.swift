public import ReactorTracing

/// A trace or a session drawn along time: for each reactor, a lane for its actions, lanes for
/// its concurrent effects, a lane per external stream it merged, and its state changes
/// underneath, all on one time axis.
///
/// Time flows left to right, one column per event, so simultaneous events stay apart and
/// order is exact; columns are spaced by the time between their events, long idle periods
/// are compressed into a marked gap, and a time axis with round ticks runs along the top.
/// Each box is sized to its text with Helvetica's metrics and wraps only between tokens, so
/// no text leaves its box. Each effect is a bar from its start to its end, drawn by outcome:
/// finished (green), cancelled (grey, dashed), failed (red, bold) or still running (orange,
/// dotted), with a legend; an effect still running when its reactor is released ends at the
/// last column before the release, drawn as cancelled and titled `· released`. Effects share a lane when they do not overlap. Mutations sit on
/// their effect's lane, on the action lane when `mutate` returned them synchronously, or on
/// their stream's lane; arrows lead from each action to its mutations, and the bottom lane
/// says what each mutation changed (`isLoading: false → true`, `repos: +3 items`). The title
/// and the lane names sit at the left.
///
/// A trace of one reactor (format 1.x) is read as a session of that one reactor and drawn
/// under the reactor's name, with all its lanes. A session gets a group of lanes per reactor,
/// under the reactor's name and id, each leaving out its action and state lanes when nothing
/// happens on them; reactors with nothing to show on a page are collapsed into one line,
/// `idle`. Dashed orange arrows lead from the action of one reactor to the action it sent to
/// another, and to each mutation that a stream element it published caused, in another
/// reactor or in itself.
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

  /// One reactor's lanes.
  struct Group: Sendable, Hashable {
    var reactor: Int
    /// `list · #1 TaskAppListReactor`, or `TaskCellReactor #3`.
    var title: String
    var lanes = TimelineLanes()
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

  /// What the diagram is of: the reactor a trace of one reactor records, or a session's app
  /// (`session` when it names none).
  public internal(set) var title: String

  /// Whether each reactor's lanes are drawn as a group under its name, idle reactors
  /// collapsed into one line (a session's); a trace of one reactor has its lanes drawn alone,
  /// every one of them.
  var groupsReactors: Bool

  var columns: [Column] = []
  var groups: [Group] = []
  var causes: [Cause] = []

  /// How many events the diagram shows.
  public var eventCount: Int { columns.count }

  /// How many events the recorder dropped in the gaps shown (``TraceEvent/Gap``).
  ///
  /// The diagram is of an incomplete trace when it is not 0. Each gap is drawn as a red
  /// marker on the (first) reactor's action lane.
  public internal(set) var droppedEventCount = 0

  /// Every reactor introduced up to the window's end, drawn or not, in the order they were.
  public internal(set) var introducedReactorIDs: [Int] = []

  /// The ids of the reactors the diagram draws, in the order they entered the session (`[1]`
  /// for a trace of one reactor).
  public var reactorIDs: [Int] { groups.map(\.reactor) }

  /// An empty diagram, filled in by ``TimelineAccumulator``.
  init(title: String, groupsReactors: Bool) {
    self.title = title
    self.groupsReactors = groupsReactors
  }

  /// Streams a session or a trace of one reactor (as a session of one), keeping the events in
  /// `sequences` of the reactors in `reactors`.
  ///
  /// Reading stops after the window's last event. Effects that started before the window are
  /// drawn from its left edge.
  ///
  /// - Parameters:
  ///   - reader: A reader that has read no event yet and verifies states (the default).
  ///   - sequences: The events to show, by `seq`; `nil` for all of them.
  ///   - reactors: The reactors to show, by id; `nil` for all of them.
  /// - Throws: ``TraceReadError`` when the file cannot be read.
  public init(
    reader: SessionReader, sequences: ClosedRange<Int>? = nil, reactors: Set<Int>? = nil
  ) throws(TraceReadError) {
    let window = sequences ?? Int.min...Int.max
    var accumulator = TimelineAccumulator(header: reader.header, reactors: reactors)
    while let event = try reader.next() {
      if event.sequence > window.upperBound { break }
      accumulator.add(
        event, isShown: window.contains(event.sequence), state: reader.currentState(of:))
    }
    self = accumulator.finished()
  }

  /// Reads the trace or session at `path`.
  ///
  /// - Parameters:
  ///   - path: A trace or session file.
  ///   - sequences: The events to show, by `seq`; `nil` for all of them.
  ///   - reactors: The reactors to show, by id; `nil` for all of them.
  /// - Throws: ``TraceReadError`` when the file cannot be read.
  public init(
    path: String, sequences: ClosedRange<Int>? = nil, reactors: Set<Int>? = nil
  ) throws(TraceReadError) {
    try self.init(reader: SessionReader(path: path), sequences: sequences, reactors: reactors)
  }
}
