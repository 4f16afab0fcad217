/// The events a recording keeps: all of them, or with a rolling window only the last ones,
/// plus the state before the first kept event.
///
/// A window keeps at most `capacity` events and, for a flight recorder, only those of the
/// last `maximumAge` and at most `maximumBytes` (estimated as the file writer's queue
/// estimates them), evicting the oldest first.
struct EventWindow<Action: Sendable, Mutation: Sendable, State: Sendable>: Sendable {
  typealias Event = StampedEvent<Action, Mutation, State>

  /// The most events kept; `Int.max` keeps all.
  let capacity: Int
  /// How old, relative to the newest event, the oldest kept event may be.
  let maximumAge: Duration?
  /// The most bytes the kept events may take, as estimated.
  let maximumBytes: Int
  /// The estimated bytes of an event, and of a mutation with its state.
  private let eventBytes = MemoryLayout<Event>.stride
  private let mutationBytes: Int
  /// The kept events in a ring: `count` of them from `start`.
  private var storage: [Event?] = []
  private var start = 0
  private(set) var count = 0
  /// The estimated bytes of the kept events.
  private(set) var bytes = 0
  /// The state before the oldest kept event.
  private(set) var stateBeforeFirst: State
  /// How many events were evicted to keep the window.
  private(set) var evictedCount = 0

  init(
    capacity: Int, initialState: State, maximumAge: Duration? = nil, maximumBytes: Int = .max,
    stateBytes: Int = 0
  ) {
    self.capacity = capacity
    self.stateBeforeFirst = initialState
    self.maximumAge = maximumAge
    self.maximumBytes = maximumBytes
    mutationBytes = MemoryLayout<Event>.stride + stateBytes
  }

  mutating func append(_ event: Event) {
    if count == capacity { evictOldest() }
    if count == storage.count {
      // Grow the ring, oldest first.
      var grown: [Event?] = []
      grown.reserveCapacity(min(capacity, max(16, 2 * storage.count)))
      for index in 0..<count { grown.append(storage[(start + index) % storage.count]) }
      grown.append(contentsOf: repeatElement(nil, count: grown.capacity - grown.count))
      storage = grown
      start = 0
    }
    var slot = start + count
    if slot >= storage.count { slot -= storage.count }
    storage[slot] = event
    count += 1
    bytes += cost(of: event)
    while count > 1 && bytes > maximumBytes { evictOldest() }
    if let maximumAge {
      while count > 1, let oldest = storage[start], event.time - oldest.time > maximumAge {
        evictOldest()
      }
    }
  }

  private func cost(of event: Event) -> Int {
    switch event.event {
    case .mutation, .jump: return mutationBytes
    default: return eventBytes
    }
  }

  private mutating func evictOldest() {
    guard let oldest = storage[start] else { return }
    switch oldest.event {
    case .mutation(_, _, _, let state, _), .jump(let state, _, _): stateBeforeFirst = state
    default: break
    }
    storage[start] = nil
    start += 1
    if start == storage.count { start = 0 }
    count -= 1
    bytes -= cost(of: oldest)
    evictedCount += 1
  }

  /// The kept events, oldest first.
  var events: [Event] {
    (0..<count).map { storage[(start + $0) % storage.count]! }
  }

  /// The trace of the kept events: `header` with the state before the first kept event and,
  /// if events were evicted, the window they left; `end`, when given, follows the kept events
  /// (the end line of a recording still going on).
  func trace(
    header: TraceHeader, encoder: TraceEventEncoder<Action, Mutation, State>,
    closedBy end: Event? = nil
  ) -> Trace {
    var encoder = encoder
    var header = header
    (header.initialState, header.initialStateHash) = encoder.start(from: stateBeforeFirst)
    var kept = events
    if evictedCount > 0 {
      header.window = TraceHeader.Window(
        firstSequence: kept.first?.sequence ?? evictedCount + 1, droppedEvents: evictedCount)
    }
    if let end { kept.append(end) }
    var traceEvents: [TraceEvent] = []
    traceEvents.reserveCapacity(kept.count)
    for var event in kept {
      if case .end(let observed, let dropped, let running) = event.event {
        event.event = .end(observed: observed, dropped: dropped + evictedCount, running: running)
      }
      traceEvents.append(encoder.encode(event))
    }
    return Trace(header: header, events: traceEvents)
  }
}
