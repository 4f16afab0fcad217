/// Numbers and times the monitor's calls on the reactor's actor, and applies a
/// ``TraceLimit/firstEvents(_:)`` cap: the only work a recorder does on the hot path besides
/// storing the event.
struct EventStamper {
  private(set) var sequence = 0
  private(set) var observedCount = 0
  private(set) var droppedCount = 0
  private let cap: Int
  /// When the default `ContinuousClock` times events, its start: read directly, without the
  /// generic closure below (whose unspecialized `Clock` calls cost more, per event, than the
  /// rest of stamping it).
  private let continuousStart: ContinuousClock.Instant?
  private let elapsed: () -> Duration

  init(limit: TraceLimit, clock: any Clock<Duration>) {
    if case .firstEvents(let count) = limit { cap = count } else { cap = .max }
    if clock is ContinuousClock {
      continuousStart = ContinuousClock.now
      elapsed = { Duration.zero }
    } else {
      continuousStart = nil
      elapsed = Self.stopwatch(clock)
    }
  }

  private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }

  /// The time since recording started.
  @inline(__always)
  private func now() -> Duration {
    if let continuousStart { return continuousStart.duration(to: ContinuousClock.now) }
    return elapsed()
  }

  /// The next event's sequence number and time, or `nil` when the cap drops it.
  mutating func next() -> (sequence: Int, time: Duration)? {
    observedCount += 1
    guard sequence < cap else {
      droppedCount += 1
      return nil
    }
    sequence += 1
    return (sequence, now())
  }

  /// Takes back the number `next()` just gave, for an event the writer's full queue dropped:
  /// it stays observed and counts as dropped.
  mutating func retract() {
    sequence -= 1
    droppedCount += 1
  }

  /// The gap event saying how many events before it were dropped: not an observed event, but
  /// numbered in sequence with them.
  mutating func gap(dropped: Int) -> CapturedEvent {
    sequence += 1
    return CapturedEvent(sequence: sequence, time: now(), kind: .gap(dropped: dropped))
  }

  /// Counts an event dropped before it was numbered.
  mutating func skip() {
    observedCount += 1
    droppedCount += 1
  }

  /// Takes back the number `gap(dropped:)` just gave, for a gap the queue had no room for.
  mutating func retractGap() {
    sequence -= 1
  }

  /// The end event `end()` would give now, without numbering it.
  func peekEnd(running: [TraceEvent.EffectStart]) -> CapturedEvent {
    CapturedEvent(
      sequence: sequence + 1, time: now(),
      kind: .end(observed: observedCount, dropped: droppedCount, running: running))
  }

  /// The end event, which no cap drops.
  ///
  /// - Parameter running: The effects still running, in the order they started.
  /// - Returns: The end event, stamped with the next sequence number.
  mutating func end(running: [TraceEvent.EffectStart]) -> CapturedEvent {
    let end = peekEnd(running: running)
    sequence = end.sequence
    return end
  }
}
