package import ReactorCore
import ReactorSchema

/// Something that records a reactor's trace: ``InMemoryTraceRecorder`` for tests,
/// ``FileTraceRecorder`` for real runs.
///
/// A recorder attaches itself as the reactor's ``ReactorCore/ReactorRuntime/monitor`` when it
/// is created; the reactor's code does not change. ``stop()`` detaches it and completes the
/// trace.
@MainActor
public protocol TraceRecorder: AnyObject {
  /// The trace's first line: reactor, schema, initial state, clock, metadata.
  var header: TraceHeader { get }
  /// How many events the reactor produced while recording, kept or not.
  var observedEventCount: Int { get }
  /// How many of them a ``TraceLimit/firstEvents(_:)`` limit or a full queue left out.
  var droppedEventCount: Int { get }
  /// Waits until every effect started while recording has ended.
  func waitUntilIdle() async
  /// Detaches from the reactor and completes the trace with its end line, which lists the
  /// effects still running.
  /// - Throws: ``TraceRecordingError`` when the trace could not be written.
  func stop() async throws(TraceRecordingError)
}

/// What the reactor-trace library calls itself in the headers it writes.
let recorderIdentifier = "reactor-trace-swift 0.1.0"

extension Reactor {
  /// The header of a recording of this reactor starting now, and the encoder primed with
  /// its current state.
  package func traceHeader(
    options: TraceOptions
  ) throws(TraceRecordingError) -> (
    TraceHeader, TraceEventEncoder<Action, Mutation, State>
  ) {
    var encoder = try TraceEventEncoder<Action, Mutation, State>(
      redactions: options.redactions, snapshotInterval: options.snapshotInterval)
    switch options.limit {
    case .unlimited: break
    case .firstEvents(let count), .lastEvents(let count):
      guard count >= 1 else {
        throw .invalidOption("a trace limit must keep at least 1 event, not \(count)")
      }
    }
    let (initialState, initialHash) = encoder.start(from: currentState)
    let clock = options.clock
    let isRealTime = clock is ContinuousClock || clock is SuspendingClock
    var header = TraceHeader(
      reactor: String(reflecting: type(of: self)), recorder: recorderIdentifier,
      clock: TraceHeader.Clock(
        name: String(describing: type(of: clock)),
        origin: isRealTime ? WallClock.nowISO8601() : nil),
      schema: TraceSchema(action: Action.self, mutation: Mutation.self, state: State.self),
      initialState: initialState, initialStateHash: initialHash, metadata: options.metadata,
      redactions: options.redactions.map(\.pattern))
    // A recording that may drop events may hold gap events, new in 1.2; any other is a 1.1
    // trace, byte for byte as before.
    if options.overflow == .drop { header.version = TraceFormatVersion(major: 1, minor: 2) }
    // A recording of effect ids (`cancelID`, `cancelInFlight` on `effectStart`) is 1.3, which
    // includes 1.2's gaps.
    if options.recordsEffectIDs { header.version = TraceFormatVersion(major: 1, minor: 3) }
    // A recording that may hold jumps is 1.4, which includes 1.2 and 1.3: its effect starts
    // record their ids too (``RecordingMonitor``).
    if options.recordsJumps { header.version = TraceHeader.jumpVersion }
    return (header, encoder)
  }
}
