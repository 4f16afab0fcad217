public import ReactorTracing

/// A trace in the Chrome JSON trace event format, which ui.perfetto.dev, `chrome://tracing`
/// and other timeline viewers open.
///
/// The reactor is one process, named by its type without the module (`CounterReactor`; the
/// whole type is in the metadata). Its actions are instants on an "actions" track, its mutations
/// instants on a "mutations" track with the state change as arguments, and each async effect a
/// complete slice from its start to its end on an effect track of its own: effects that run at
/// the same time get different tracks, and a track is reused only after its effect ended (not
/// by an effect starting at that very time), so no two slices on one track overlap or touch.
/// An effect still running when the recording stopped lasts
/// until the last event and says so. Flow arrows follow causality: from an action to each effect
/// it started and to each mutation it returned at once, from an effect to each mutation it sent.
/// Numeric and Boolean fields of the state (up to 32) are counter tracks, `state isLoading`,
/// `state value`, with a point at each change and one with the last values where the
/// reactor's lane ends; each point holds every field, as the Chrome trace viewer reads a field
/// a point leaves out as 0. Timestamps are the trace's own clock in
/// microseconds.
///
/// Viewers bind each end of a flow arrow to the slice open on its track when they read it,
/// reading events of one time in file order; so an arrow's start follows the instant or
/// lies inside the slice it leaves from, and its end follows the one it reaches. (The Chrome
/// trace viewer binds by time alone: there, arrows to instants of one time on one track
/// share an end.)
///
/// A session (``write(session:to:pendingLimit:)``) gives every reactor a process of its own,
/// named by its name, id and type (`list #1 · TaskListReactor`) and ordered as the
/// reactors entered the session, with the same tracks as a trace of one reactor and an
/// "introduced" and a "released" instant on its actions track. Flow arrows cross processes
/// along the session's causes: from the effect (or else the action) of the reactor that sent
/// an action to that action, from the effect that published a stream element to each mutation
/// made from it, and from the parent's event that created a reactor to its introduction: the
/// parent's mutation that comes right after the introduction, at its time, for a reactor
/// made in `reduce` (whose `during` names the event before that mutation), or else the event
/// `during` names. The session's gaps and end are global instants.
///
/// The document is written as the trace is read, in one pass with bounded memory: an effect's
/// slice is written where the effect started once it has ended, and events wait only while
/// an effect before them is still open. An effect open for so long that the events waiting
/// behind it pass ``pendingLimit`` is written as a begin (`"ph":"B"`) and an end (`"ph":"E"`,
/// with the outcome) instead of one complete slice, which viewers draw the same way.
///
/// ```swift
/// let file = try AtomicFileStream(path: "counter.json")
/// try PerfettoTrace.write(session: SessionReader(path: "counter.trace.jsonl"), to: file.write)
/// try file.commit()
/// ```
public struct PerfettoTrace: Sendable {
  /// How many trace events the document holds.
  public private(set) var eventCount: Int
  /// The whole document, as ``write(session:to:pendingLimit:)`` writes it.
  public let serialized: [UInt8]
  /// The document's `metadata`: the header's facts and the reader's warnings.
  public private(set) var metadata: JSONObject

  /// The fixed tracks of a trace of one reactor; effect tracks follow from
  /// ``firstEffectTrack``.
  static let actionTrack: Int64 = 1
  static let mutationTrack: Int64 = 2
  static let streamTrack: Int64 = 3
  static let firstEffectTrack: Int64 = 10
  /// The most trace events that wait, unwritten, behind effects still open.
  public static let pendingLimit = 1 << 16

  /// Reads the rest of a trace and converts it, keeping the whole document in memory.
  ///
  /// - Parameter reader: A reader that has read no event yet and verifies states (the
  ///   default): the counters follow its ``TraceReader/currentState``.
  /// - Throws: ``TraceReadError`` when the trace cannot be read.
  public init(reader: TraceReader) throws(TraceReadError) {
    try self.init(session: SessionReader(reader: reader))
  }

  /// Reads the rest of a session (or of a trace of one reactor read as one) and converts it,
  /// keeping the whole document in memory.
  ///
  /// - Parameter session: A reader that has read no event yet and verifies states.
  /// - Throws: ``TraceReadError`` when the session cannot be read.
  public init(session: SessionReader) throws(TraceReadError) {
    var bytes: [UInt8] = []
    let summary = try Self.write(session: session) { bytes.append(contentsOf: $0) }
    serialized = bytes
    eventCount = summary.eventCount
    metadata = summary.metadata
  }

  /// What ``write(session:to:pendingLimit:)`` wrote.
  public struct Summary: Sendable {
    /// How many trace events the document holds.
    public var eventCount: Int
    /// The document's `metadata`: the header's facts and the reader's warnings.
    public var metadata: JSONObject
  }

  /// Reads the rest of a trace and writes its document to `output` piece by piece: the
  /// document ``write(session:to:pendingLimit:)`` writes of the trace read as a session.
  ///
  /// - Parameters:
  ///   - reader: A reader that has read no event yet and verifies states (the default).
  ///   - output: Takes each piece of the document in order.
  ///   - pendingLimit: The most trace events that wait behind an open effect before its
  ///     slice is split into a begin and an end (``pendingLimit`` by default).
  /// - Returns: How many trace events were written, and the metadata.
  /// - Throws: ``TraceReadError`` when the trace cannot be read; `output` then holds a
  ///   document cut short.
  @discardableResult
  public static func write(
    reader: TraceReader, to output: ([UInt8]) -> Void,
    pendingLimit: Int = PerfettoTrace.pendingLimit
  ) throws(TraceReadError) -> Summary {
    try write(session: SessionReader(reader: reader), to: output, pendingLimit: pendingLimit)
  }

  /// Reads the rest of a session (or of a trace of one reactor read as one) and writes its
  /// document to `output` piece by piece.
  ///
  /// The document is `{"traceEvents":[…],"metadata":{…}}`, one trace event per line so that
  /// it diffs and greps well. It sets no `displayTimeUnit`, so viewers show milliseconds (set
  /// to `ns`, the Chrome trace viewer showed `300,000,000 ns`, and Perfetto's importer once
  /// read the timestamps themselves as nanoseconds). Memory grows with the reactors alive and
  /// the effects open, not with the session's length.
  ///
  /// ```swift
  /// let file = try AtomicFileStream(path: "taskapp.json")
  /// try PerfettoTrace.write(
  ///   session: SessionReader(path: "taskapp.session.jsonl"), to: file.write)
  /// try file.commit()
  /// ```
  ///
  /// - Parameters:
  ///   - session: A reader that has read no event yet and verifies states (the default).
  ///   - output: Takes each piece of the document in order.
  ///   - pendingLimit: The most trace events that wait behind an open effect before its
  ///     slice is split into a begin and an end (``pendingLimit`` by default).
  /// - Returns: How many trace events were written, and the metadata.
  /// - Throws: ``TraceReadError`` when the session cannot be read; `output` then holds a
  ///   document cut short.
  @discardableResult
  public static func write(
    session: SessionReader, to output: ([UInt8]) -> Void,
    pendingLimit: Int = PerfettoTrace.pendingLimit
  ) throws(TraceReadError) -> Summary {
    output(Array(#"{"traceEvents":["#.utf8))
    return try Builder(header: session.header, pendingLimit: max(pendingLimit, 4))
      .export(session, to: output)
  }
}
