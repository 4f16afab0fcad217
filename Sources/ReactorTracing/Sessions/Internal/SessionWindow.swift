/// The last events of a session, bounded as a ``FlightWindow`` says, and every reactor alive
/// before the oldest kept event as it was then: what a session flight recorder keeps.
///
/// Events are kept encoded (the lane encoded them on the main actor), so the window holds no
/// action, mutation, state or reactor. When the introduction of a reactor leaves the window,
/// it stays as that reactor's base; each of its mutations that leaves the window is applied
/// to the base's state, so the base always holds the reactor's state just before the oldest
/// kept event. The window as a session starts with the bases of the reactors still alive (at
/// their own introduction's `seq`, before the window's first one), then the kept events.
struct SessionWindow {
  /// A kept event and what it counts against ``FlightWindow/bytes``.
  private struct Kept {
    var event: SessionEvent
    var bytes: Int
  }

  let bounds: FlightWindow
  private var kept: [Kept] = []
  /// The index in `kept` of the oldest kept event: evicted events before it are dropped in
  /// bulk, once they are half of the array.
  private var head = 0
  /// The bytes the kept events are counted at.
  private(set) var bytes = 0
  /// How many events were evicted.
  private(set) var evictedCount = 0
  /// The introductions of live reactors whose own introduction was evicted, with the state
  /// before the oldest kept event, by reactor id.
  private var bases: [Int: SessionEvent] = [:]

  init(bounds: FlightWindow) {
    self.bounds = bounds
  }

  /// How many events are kept.
  var count: Int { kept.count - head }

  /// Keeps `event`, counted at `bytes`, evicting the oldest events beyond the bounds.
  mutating func append(_ event: SessionEvent, bytes: Int) {
    kept.append(Kept(event: event, bytes: bytes))
    self.bytes += bytes
    while count > bounds.events { evictOldest() }
    while count > 1 && self.bytes > bounds.bytes { evictOldest() }
    if let duration = bounds.duration {
      while count > 1 && event.time - kept[head].event.time > duration { evictOldest() }
    }
  }

  private mutating func evictOldest() {
    let oldest = kept[head]
    head += 1
    bytes -= oldest.bytes
    evictedCount += 1
    switch oldest.event.kind {
    case .introduced(let introduction):
      bases[introduction.reactor] = oldest.event
    case .released(let reactor):
      bases[reactor] = nil
    case .reactor(let reactor, .mutation(let mutation)):
      guard let base = bases[reactor], case .introduced(var introduction) = base.kind else {
        break
      }
      do throws(TraceFormatError) {
        try introduction.initialState.apply(mutation.state)
        introduction.initialStateHash = mutation.stateHash
      } catch {
        // The lane encoded the change from this very state; should it ever not apply, the
        // base says so rather than carry a state that is not the reactor's.
        introduction.initialState = .description("a state the window could not rebuild")
        introduction.initialStateHash = introduction.initialState.hash
      }
      bases[reactor] = SessionEvent(
        sequence: base.sequence, time: base.time, kind: .introduced(introduction))
    case .reactor(let reactor, .jump(let jump)):
      guard let base = bases[reactor], case .introduced(var introduction) = base.kind else {
        break
      }
      introduction.initialState = jump.state
      introduction.initialStateHash = jump.stateHash
      bases[reactor] = SessionEvent(
        sequence: base.sequence, time: base.time, kind: .introduced(introduction))
    default:
      break
    }
    if head >= 64 && 2 * head >= kept.count {
      kept.removeFirst(head)
      head = 0
    }
  }

  /// The window as a session: the bases of the reactors alive before its first kept event,
  /// the kept events and `end`, when given (its dropped count then includes the evicted
  /// events).
  ///
  /// Once events were evicted, the header is version 2.1 with a `window` saying which `seq`
  /// the kept events start at and how many came before.
  func session(header: SessionHeader, end: SessionEvent?) -> SessionTrace {
    var header = header
    var events = bases.values.sorted { $0.sequence < $1.sequence }
    events.reserveCapacity(events.count + count + 1)
    for index in head..<kept.count { events.append(kept[index].event) }
    if evictedCount > 0 {
      header.version = max(header.version, SessionHeader.windowVersion)
      header.window = TraceHeader.Window(
        firstSequence: head < kept.count ? kept[head].event.sequence : evictedCount + 1,
        droppedEvents: evictedCount)
    }
    if var end {
      if case .end(var value) = end.kind {
        value.droppedEvents += evictedCount
        end.kind = .end(value)
      }
      events.append(end)
    }
    return SessionTrace(header: header, events: events)
  }
}
