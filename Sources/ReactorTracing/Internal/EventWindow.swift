/// The events a recording keeps: all of them, or with a rolling window only the last ones,
/// plus the state before the first kept event.
struct EventWindow<Action: Sendable, Mutation: Sendable, State: Sendable>: Sendable {
  typealias Event = StampedEvent<Action, Mutation, State>

  /// The most events kept; `Int.max` keeps all.
  let capacity: Int
  private var storage: [Event] = []
  /// Index of the oldest event in `storage` once it is full.
  private var start = 0
  /// The state before the oldest kept event.
  private(set) var stateBeforeFirst: State
  /// How many events were evicted to keep the window.
  private(set) var evictedCount = 0

  init(capacity: Int, initialState: State) {
    self.capacity = capacity
    self.stateBeforeFirst = initialState
  }

  var count: Int { storage.count }

  mutating func append(_ event: Event) {
    guard storage.count == capacity else {
      storage.append(event)
      return
    }
    if case .mutation(_, _, _, let state) = storage[start].event { stateBeforeFirst = state }
    storage[start] = event
    start = (start + 1) % capacity
    evictedCount += 1
  }

  /// The kept events, oldest first.
  var events: [Event] {
    Array(storage[start...] + storage[..<start])
  }

  /// The trace of the kept events: `header` with the state before the first kept event and,
  /// if events were evicted, the window they left.
  func trace(
    header: TraceHeader, encoder: TraceEventEncoder<Action, Mutation, State>
  ) -> Trace {
    var encoder = encoder
    var header = header
    (header.initialState, header.initialStateHash) = encoder.start(from: stateBeforeFirst)
    let kept = events
    if evictedCount > 0 {
      header.window = TraceHeader.Window(
        firstSequence: kept.first?.sequence ?? evictedCount + 1, droppedEvents: evictedCount)
    }
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
