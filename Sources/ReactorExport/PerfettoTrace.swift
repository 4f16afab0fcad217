public import ReactorTracing

/// A trace in the Chrome JSON trace event format, which ui.perfetto.dev, `chrome://tracing`
/// and other timeline viewers open.
///
/// The reactor is one process. Its actions are instants on an "actions" track, its mutations
/// instants on a "mutations" track with the state change as arguments, and each async effect a
/// complete slice from its start to its end on an effect track of its own: effects that run at
/// the same time get different tracks, and a track is reused only after its effect ended, so no
/// two slices on one track overlap. An effect still running when the recording stopped lasts
/// until the last event and says so. Flow arrows follow causality: from an action to each effect
/// it started and to each mutation it returned at once, from an effect to each mutation it sent.
/// Numeric and Boolean fields of the state (up to 32) are counter tracks, `state isLoading`,
/// `state value`, with a point at each change. Timestamps are the trace's own clock in
/// microseconds.
///
/// Viewers bind each end of a flow arrow to the slice open on its track when they read it,
/// reading events of one time in file order; so an arrow's start follows the instant or
/// lies inside the slice it leaves from, and its end follows the one it reaches.
///
/// The document is written as the trace is read, in one pass with bounded memory: an effect's
/// slice is written where the effect started once it has ended, and events wait only while
/// an effect before them is still open. An effect open for so long that the events waiting
/// behind it pass ``pendingLimit`` is written as a begin (`"ph":"B"`) and an end (`"ph":"E"`,
/// with the outcome) instead of one complete slice, which viewers draw the same way.
///
/// ```swift
/// let file = try AtomicFileStream(path: "counter.json")
/// try PerfettoTrace.write(reader: TraceReader(path: "counter.trace.jsonl"), to: file.write)
/// try file.commit()
/// ```
public struct PerfettoTrace: Sendable {
  /// How many trace events the document holds.
  public private(set) var eventCount: Int
  /// The whole document, as ``write(reader:to:)`` writes it.
  public let serialized: [UInt8]
  /// The document's `metadata`: the header's facts and the reader's warnings.
  public private(set) var metadata: JSONObject

  /// The process id the reactor is given.
  static let processID: Int64 = 1
  /// The fixed tracks; effect tracks follow from ``firstEffectTrack``.
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
    var bytes: [UInt8] = []
    let summary = try Self.write(reader: reader) { bytes.append(contentsOf: $0) }
    serialized = bytes
    eventCount = summary.eventCount
    metadata = summary.metadata
  }

  /// What ``write(reader:to:)`` wrote.
  public struct Summary: Sendable {
    /// How many trace events the document holds.
    public var eventCount: Int
    /// The document's `metadata`: the header's facts and the reader's warnings.
    public var metadata: JSONObject
  }

  /// Reads the rest of a trace and writes its document to `output` piece by piece:
  /// `{"displayTimeUnit":"ns","traceEvents":[…],"metadata":{…}}`, one trace event per line so
  /// that it diffs and greps well.
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
    let header = reader.header
    var metadata = JSONObject()
    metadata["reactor"] = .string(header.reactor)
    metadata["clock"] = .string(header.clock.name)
    metadata["format"] = .string("reactor-trace \(header.version)")
    if let recorder = header.recorder { metadata["recorder"] = .string(recorder) }
    if let origin = header.clock.origin { metadata["origin"] = .string(origin) }
    for (key, value) in header.metadata.sorted(by: { $0.key < $1.key }) {
      metadata["metadata." + key] = .string(value)
    }
    output(Array(#"{"displayTimeUnit":"ns","traceEvents":["#.utf8))
    var builder = Builder(reactor: header.reactor, pendingLimit: max(pendingLimit, 4))
    var counters = StateCounters()
    builder.count(counters.changes(in: header.initialState, through: nil), at: .zero)
    while let event = try reader.next() {
      builder.add(event)
      if case .mutation(let mutation) = event.kind {
        builder.count(
          counters.changes(in: reader.currentState, through: mutation.state), at: event.time)
      }
      builder.release(to: output)
    }
    builder.finish(to: output)
    metadata["warnings"] = .array(reader.warnings.map { .string($0.description) })
    if builder.arrowsLeftOut > 0 {
      metadata["arrowsLeftOut"] = .int(Int64(builder.arrowsLeftOut))
    }
    var tail = Array("\n],\"metadata\":".utf8)
    JSONValue.object(metadata).write(to: &tail)
    tail.append(contentsOf: "}\n".utf8)
    output(tail)
    return Summary(eventCount: builder.events.writtenCount, metadata: metadata)
  }
}

extension PerfettoTrace {
  /// Converts events one at a time, keeping only what open effects need.
  private struct Builder {
    var events = PendingEvents()
    /// An effect that started and has not ended: where its slice waits in ``events``.
    struct OpenEffect {
      /// The slice's place, by its index among all trace events.
      var slot: Int
      var track: Int64
      var start: Duration
      var name: String
      var arguments: JSONObject
      /// Whether its slot holds a begin event (`B`), so that its end is an `E` event.
      var isBegun = false
    }
    var openEffects: [Int: OpenEffect] = [:]
    /// Effect tracks whose effect ended, to reuse lowest first.
    var freeTracks: [Int64] = []
    var trackCount: Int64 = 0
    var nextFlow: Int64 = 1
    var lastTime: Duration = .zero
    /// Where each action's instant is among all trace events, and its time; actions long
    /// written are forgotten.
    var actionInstants: [Int: (index: Int, time: Duration)] = [:]
    /// How many actions ``actionInstants`` holds before those long written are forgotten.
    static let rememberedActions = 1 << 17
    /// The highest action id forgotten from ``actionInstants``.
    var highestForgottenAction: Int?
    /// Arrows from actions forgotten before their effect or mutation came.
    var arrowsLeftOut = 0
    /// The most events that wait behind open effects.
    let pendingLimit: Int
    /// Events kept unwritten behind the newest, so that arrows from recent actions start
    /// right after their instant.
    var keptForArrows: Int { pendingLimit / 16 }

    init(reactor: String, pendingLimit: Int) {
      self.pendingLimit = pendingLimit
      events.append(Self.metadata("process_name", track: nil, name: reactor))
      for (track, name) in [
        (actionTrack, "actions"), (mutationTrack, "mutations"), (streamTrack, "streams"),
      ] {
        events.append(Self.metadata("thread_name", track: track, name: name))
        events.append(Self.sortIndex(track: track))
      }
    }

    mutating func add(_ event: TraceEvent) {
      lastTime = event.time
      switch event.kind {
      case .action(let action):
        var arguments = Self.object([
          "seq": .int(Int64(event.sequence)), "id": .int(Int64(action.id)),
        ])
        if case .stream(let stream) = action.source { arguments["stream"] = .string(stream) }
        if let value = action.value { arguments["value"] = value }
        actionInstants[action.id] = (events.endIndex, event.time)
        events.append(
          Self.instant(
            action.label, category: "action", time: event.time, track: actionTrack,
            arguments: arguments))
      case .effectStarted(let start):
        // A second start of an effect still running (a damaged or hand-edited trace): the
        // first one's slice ends here, so that each start has a slice of its own.
        if var earlier = openEffects.removeValue(forKey: start.effect) {
          earlier.arguments["outcome"] = .string("started again (seq \(event.sequence))")
          close(earlier, at: event.time)
        }
        let track = freeTracks.isEmpty ? newTrack() : freeTracks.removeFirst()
        let name = start.name ?? "effect \(start.effect)"
        let arguments = Self.object([
          "seq": .int(Int64(event.sequence)), "effect": .int(Int64(start.effect)),
          "action": .int(Int64(start.action)),
        ])
        // The slice goes where the effect started, filled in when it ends, so that every
        // track's events stay in time order in the file.
        openEffects[start.effect] = OpenEffect(
          slot: events.endIndex, track: track, start: event.time, name: name,
          arguments: arguments)
        events.appendPlaceholder()
        flow(fromAction: start.action, to: (time: event.time, track: track))
      case .effectEnded(let end):
        guard var effect = openEffects.removeValue(forKey: end.effect) else { return }
        switch end.outcome {
        case .finished: effect.arguments["outcome"] = "finished"
        case .cancelled: effect.arguments["outcome"] = "cancelled"
        case .failed(let error):
          effect.arguments["outcome"] = "failed"
          effect.arguments["error"] = .string(error)
        }
        close(effect, at: event.time)
      case .mutation(let mutation):
        var arguments = Self.object([
          "seq": .int(Int64(event.sequence)), "id": .int(Int64(mutation.id)),
          "hash": .string(mutation.stateHash.description),
        ])
        if let value = mutation.value { arguments["value"] = value }
        // Where the arrow starts: at the action's instant, or inside the effect's slice.
        var sourceAction: Int?
        var sourceEffect: Int64?
        switch mutation.cause {
        case .action(let action):
          arguments["cause"] = .string("action \(action)")
          sourceAction = action
        case .effect(let effect, let action):
          arguments["cause"] = .string("effect \(effect) of action \(action)")
          sourceEffect = openEffects[effect]?.track
        case .stream(let stream):
          arguments["cause"] = .string("stream \(stream)")
        }
        switch mutation.state {
        case .snapshot(let state): arguments["state"] = state
        case .diff(let operations): arguments["changes"] = .array(operations.map(\.json))
        case .description(let text): arguments["state"] = .string(text)
        }
        events.append(
          Self.instant(
            mutation.label, category: "mutation", time: event.time,
            track: mutationTrack, arguments: arguments))
        // After the instant: a viewer binds each end of an arrow to the slice that is open on
        // its track when it reads it, and events at one time are read in file order.
        let target = (time: event.time, track: mutationTrack)
        if let sourceAction { flow(fromAction: sourceAction, to: target) }
        if let sourceEffect { flow(from: (time: event.time, track: sourceEffect), to: target) }
      case .streamEnded(let end):
        var arguments = Self.object(["seq": .int(Int64(event.sequence))])
        if let error = end.error { arguments["error"] = .string(error) }
        events.append(
          Self.instant(
            "\(end.stream) ended", category: "stream", time: event.time,
            track: streamTrack, arguments: arguments))
      case .gap(let gap):
        // The recorder dropped events here: the trace is incomplete from this point.
        events.append(
          Self.instant(
            "\(gap.droppedEvents) events dropped", category: "gap", time: event.time,
            track: actionTrack,
            arguments: Self.object([
              "seq": .int(Int64(event.sequence)), "dropped": .int(Int64(gap.droppedEvents)),
            ])))
      case .end(let end):
        events.append(
          Self.instant(
            "recording ended", category: "recording", time: event.time,
            track: actionTrack,
            arguments: Self.object([
              "seq": .int(Int64(event.sequence)), "observed": .int(Int64(end.observedEvents)),
              "dropped": .int(Int64(end.droppedEvents)),
            ])))
      @unknown default:
        // A kind added after this export was written: an instant named by its description.
        events.append(
          Self.instant(
            String(describing: event.kind), category: "other", time: event.time,
            track: streamTrack, arguments: Self.object(["seq": .int(Int64(event.sequence))])))
      }
    }

    /// Points on the counter tracks of state fields.
    mutating func count(_ changes: [(name: String, value: Double)], at time: Duration) {
      for change in changes {
        events.append([
          "ph": "C", "cat": "state", "name": "state", "pid": .int(processID),
          "ts": Self.microseconds(time), "args": [change.name: .double(change.value)],
        ])
      }
    }

    /// Ends the effects still running when the recording stopped at the last event's time,
    /// and writes every event left.
    mutating func finish(to output: ([UInt8]) -> Void) {
      for (_, var effect) in openEffects.sorted(by: { $0.key < $1.key }) {
        effect.arguments["outcome"] = "still running when the recording stopped"
        close(effect, at: lastTime)
      }
      openEffects = [:]
      events.write(upTo: events.endIndex, to: output)
    }

    /// Writes the events no open effect holds back, once enough wait; when too many wait
    /// behind an effect, its slice becomes a begin and an end.
    mutating func release(to output: ([UInt8]) -> Void) {
      guard events.pendingCount >= 4 * keptForArrows else { return }
      var limit = events.endIndex - keptForArrows
      if events.pendingCount >= pendingLimit {
        for (effect, open) in openEffects.sorted(by: { $0.value.slot < $1.value.slot })
        where !open.isBegun && open.slot < limit {
          events.replace(
            at: open.slot,
            with: [
              "ph": "B", "cat": "effect", "name": .string(open.name), "pid": .int(processID),
              "tid": .int(open.track), "ts": Self.microseconds(open.start),
              "args": .object(open.arguments),
            ])
          openEffects[effect]?.isBegun = true
        }
      }
      for open in openEffects.values where !open.isBegun { limit = min(limit, open.slot) }
      guard limit > events.startIndex else { return }
      events.write(upTo: limit, to: output)
      if actionInstants.count > Self.rememberedActions {
        for (action, instant) in actionInstants where instant.index < events.startIndex {
          actionInstants[action] = nil
          highestForgottenAction = max(highestForgottenAction ?? action, action)
        }
      }
    }

    private mutating func newTrack() -> Int64 {
      let track = firstEffectTrack + trackCount
      trackCount += 1
      events.append(Self.metadata("thread_name", track: track, name: "effects \(trackCount)"))
      events.append(Self.sortIndex(track: track))
      return track
    }

    private mutating func close(_ effect: OpenEffect, at time: Duration) {
      defer {
        freeTracks.append(effect.track)
        freeTracks.sort()
      }
      if effect.isBegun {
        events.append([
          "ph": "E", "cat": "effect", "name": .string(effect.name), "pid": .int(processID),
          "tid": .int(effect.track), "ts": Self.microseconds(time),
          "args": .object(effect.arguments),
        ])
        return
      }
      events.replace(
        at: effect.slot,
        with: [
          "ph": "X", "cat": "effect", "name": .string(effect.name), "pid": .int(processID),
          "tid": .int(effect.track), "ts": Self.microseconds(effect.start),
          "dur": Self.microseconds(time - effect.start), "args": .object(effect.arguments),
        ])
    }

    /// An arrow from an action's instant.
    ///
    /// None when the action is not in the trace (in a windowed trace), or was forgotten
    /// (counted in ``arrowsLeftOut``). The arrow's start goes right after the instant while
    /// that is unwritten; after it, at the action's time, where a viewer (which orders events
    /// by time) binds it to the last instant of that time.
    private mutating func flow(fromAction action: Int, to end: (time: Duration, track: Int64)) {
      guard let instant = actionInstants[action] else {
        if let highestForgottenAction, action <= highestForgottenAction { arrowsLeftOut += 1 }
        return
      }
      let id = JSONValue.int(nextFlow)
      nextFlow += 1
      let start = Self.flowStart(id: id, time: instant.time, track: actionTrack)
      if !events.insert(start, after: instant.index) { events.append(start) }
      events.append(Self.flowEnd(id: id, time: end.time, track: end.track))
    }

    /// An arrow from the slice open on a track at a time.
    private mutating func flow(
      from start: (time: Duration, track: Int64), to end: (time: Duration, track: Int64)
    ) {
      let id = JSONValue.int(nextFlow)
      nextFlow += 1
      events.append(Self.flowStart(id: id, time: start.time, track: start.track))
      events.append(Self.flowEnd(id: id, time: end.time, track: end.track))
    }

    static func flowStart(id: JSONValue, time: Duration, track: Int64) -> JSONValue {
      [
        "ph": "s", "cat": "cause", "name": "cause", "id": id, "pid": .int(processID),
        "tid": .int(track), "ts": microseconds(time),
      ]
    }

    static func flowEnd(id: JSONValue, time: Duration, track: Int64) -> JSONValue {
      [
        "ph": "f", "bp": "e", "cat": "cause", "name": "cause", "id": id,
        "pid": .int(processID), "tid": .int(track), "ts": microseconds(time),
      ]
    }

    static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONObject {
      JSONObject(members.map { ($0.key, $0.value) })
    }

    static func instant(
      _ name: String, category: String, time: Duration, track: Int64, arguments: JSONObject
    ) -> JSONValue {
      [
        "ph": "i", "s": "t", "cat": .string(category), "name": .string(name),
        "pid": .int(processID), "tid": .int(track), "ts": microseconds(time),
        "args": .object(arguments),
      ]
    }

    static func metadata(_ kind: String, track: Int64?, name: String) -> JSONValue {
      var object = Self.object([
        "ph": "M", "name": .string(kind), "pid": .int(processID), "args": ["name": .string(name)],
      ])
      if let track { object["tid"] = .int(track) }
      return .object(object)
    }

    static func sortIndex(track: Int64) -> JSONValue {
      [
        "ph": "M", "name": "thread_sort_index", "pid": .int(processID), "tid": .int(track),
        "args": ["sort_index": .int(track)],
      ]
    }

    /// Microseconds, exact: whole ones as integers, the rest with the nanoseconds as decimals.
    static func microseconds(_ duration: Duration) -> JSONValue {
      let nanoseconds = duration.traceNanoseconds
      if nanoseconds % 1_000 == 0 { return .int(nanoseconds / 1_000) }
      return .double(Double(nanoseconds) / 1_000)
    }
  }
}

extension PerfettoTrace {
  /// Trace events written as JSON as soon as they are made, waiting in order until they can
  /// go out: a document of 100,000 trace events held as value trees took ten times its own
  /// size in memory.
  ///
  /// Events are numbered from 0 across the whole document; those from ``startIndex`` on wait
  /// here. A placeholder holds the place of an event written later.
  struct PendingEvents {
    private var chunks: [[UInt8]] = []
    /// Events that go right after the one at an index, in the order inserted.
    private var following: [Int: [[UInt8]]] = [:]
    /// The index of the first event waiting.
    private(set) var startIndex = 0
    /// How many trace events have gone out.
    private(set) var writtenCount = 0

    /// The index the next event appended gets.
    var endIndex: Int { startIndex + chunks.count }
    /// How many events wait.
    var pendingCount: Int { chunks.count }

    mutating func append(_ event: JSONValue) {
      chunks.append(event.serialized)
    }

    /// Holds a place for an event written later; a place never filled is left out of the
    /// document.
    mutating func appendPlaceholder() {
      chunks.append([])
    }

    mutating func replace(at index: Int, with event: JSONValue) {
      chunks[index - startIndex] = event.serialized
    }

    /// Puts `event` after the one at `index` (and after what was put there before).
    /// - Returns: `false` when that event has gone out already.
    mutating func insert(_ event: JSONValue, after index: Int) -> Bool {
      guard index >= startIndex else { return false }
      following[index, default: []].append(event.serialized)
      return true
    }

    /// Writes the events before `limit`, each on a line of its own, and forgets them.
    mutating func write(upTo limit: Int, to output: ([UInt8]) -> Void) {
      let count = min(limit, endIndex) - startIndex
      guard count > 0 else { return }
      var bytes: [UInt8] = []
      bytes.reserveCapacity(1 << 20)
      func put(_ event: [UInt8]) {
        bytes.append(contentsOf: writtenCount == 0 ? "\n".utf8 : ",\n".utf8)
        bytes.append(contentsOf: event)
        writtenCount += 1
        if bytes.count >= 1 << 20 {
          output(bytes)
          bytes.removeAll(keepingCapacity: true)
        }
      }
      for offset in 0..<count {
        if !chunks[offset].isEmpty { put(chunks[offset]) }
        if let after = following.removeValue(forKey: startIndex + offset) {
          for event in after { put(event) }
        }
      }
      if !bytes.isEmpty { output(bytes) }
      chunks.removeFirst(count)
      startIndex += count
    }
  }
}
