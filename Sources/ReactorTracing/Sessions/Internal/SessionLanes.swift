#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Every reactor's lane of a session file, split out in one pass and kept in a
/// ``SpillStore``, to be read again one lane at a time by a ``TraceReader``.
///
/// A lane is what `SessionTrace.lane(of:)` makes of the session, line for line (its header,
/// its events, the session's gaps while it was alive, an end line at its release or at the
/// session's end), without the session in memory. What ``ReactorLanes`` reads of a session
/// file.
///
/// Unchecked `Sendable`: its properties are written only while `init` splits the session,
/// then only read (``SpillStore/read(_:to:)`` reads the file at offsets), so lanes may be
/// opened from any thread.
final class SessionLanes: @unchecked Sendable {
  /// The session's reactors in the order they entered it.
  private(set) var reactors: [ReactorIntroduction] = []

  /// What is known of a lane while the session is read.
  private struct Lane {
    var stream: Int
    var isOpen = true
    var observedEvents = 0
    var droppedEvents = 0
  }

  private let store: SpillStore
  private var lanes: [Int: Lane] = [:]

  /// Reads the session at `path` and splits it into lanes.
  /// - Parameters:
  ///   - path: The session file.
  ///   - memoryLimit: How many bytes of lanes stay in memory.
  /// - Throws: ``TraceReadError`` when the session cannot be read.
  init(path: String, memoryLimit: Int = SpillStore.defaultMemoryLimit) throws(TraceReadError) {
    store = SpillStore(memoryLimit: memoryLimit)
    let reader = try SessionReader(path: path, verifyingStates: false)
    let header = reader.header
    while let event = try reader.next() {
      switch event.kind {
      case .introduced(let introduction):
        guard lanes[introduction.reactor] == nil else { continue }
        reactors.append(introduction)
        let lane = Lane(stream: store.makeStream())
        store.append(introduction.traceHeader(in: header).serializedLine, to: lane.stream)
        store.append(CollectionOfOne(UInt8(ascii: "\n")), to: lane.stream)
        lanes[introduction.reactor] = lane
      case .reactor(let reactor, let kind):
        append(TraceEvent(sequence: event.sequence, time: event.time, kind: kind), to: reactor)
      case .gap(let gap):
        for (reactor, lane) in lanes where lane.isOpen {
          append(
            TraceEvent(sequence: event.sequence, time: event.time, kind: .gap(gap)), to: reactor)
        }
      case .released(let reactor):
        end(reactor, running: [], at: event)
      case .end(let end):
        for (reactor, lane) in lanes where lane.isOpen {
          let running = end.runningEffects.filter { $0.reactor == reactor }.map(\.start)
          self.end(reactor, running: running, at: event)
        }
      @unknown default:
        continue
      }
    }
  }

  private func append(_ event: TraceEvent, to reactor: Int) {
    guard var lane = lanes[reactor], lane.isOpen else { return }
    if case .gap(let gap) = event.kind {
      lane.droppedEvents += gap.droppedEvents
    } else {
      lane.observedEvents += 1
    }
    store.append(event.serializedLine, to: lane.stream)
    store.append(CollectionOfOne(UInt8(ascii: "\n")), to: lane.stream)
    lanes[reactor] = lane
  }

  /// Closes a lane with an end line, as `SessionTrace.lane(of:)` ends it.
  private func end(
    _ reactor: Int, running: [TraceEvent.EffectStart], at event: SessionEvent
  ) {
    guard let lane = lanes[reactor], lane.isOpen else { return }
    let end = TraceEvent.End(
      observedEvents: lane.observedEvents + lane.droppedEvents,
      droppedEvents: lane.droppedEvents, runningEffects: running)
    append(TraceEvent(sequence: event.sequence, time: event.time, kind: .end(end)), to: reactor)
    lanes[reactor]?.isOpen = false
  }

  /// A reader of one reactor's lane, from an unnamed temporary copy of it.
  /// - Parameters:
  ///   - reactor: The reactor's id.
  ///   - name: What the reader's errors call the lane.
  /// - Returns: A reader at the lane's first event, verifying states.
  /// - Throws: ``TraceReadError`` when the lane cannot be copied or read.
  func reader(of reactor: Int, name: String) throws(TraceReadError) -> TraceReader {
    guard let lane = lanes[reactor] else {
      throw .readFailed(path: name, reason: "no reactor \(reactor) in the session")
    }
    guard let copy = tmpfile() else {
      throw .readFailed(path: name, reason: "no temporary file for the lane")
    }
    defer { fclose(copy) }
    let target = fileno(copy)
    var isWritten = true
    let isWhole = store.read(lane.stream) { piece in
      guard isWritten else { return }
      isWritten = piece.withUnsafeBytes { POSIXIO.write($0, to: target) }
    }
    // The reader gets a descriptor of its own, which keeps the unnamed file while it reads.
    let descriptor = dup(target)
    guard isWhole, isWritten, descriptor >= 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
      if descriptor >= 0 { close(descriptor) }
      throw .readFailed(path: name, reason: "the lane's temporary file could not be written")
    }
    return try TraceReader(descriptor: descriptor, name: name)
  }
}
