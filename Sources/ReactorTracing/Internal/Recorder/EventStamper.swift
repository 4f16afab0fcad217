#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers and times the monitor's calls on the reactor's actor, and applies a
/// ``TraceLimit/firstEvents(_:)`` cap: the only work a recorder does on the hot path besides
/// storing the event.
struct EventStamper {
  private(set) var sequence = 0
  private(set) var observedCount = 0
  private(set) var droppedCount = 0
  private let cap: Int
  /// Whether the default `ContinuousClock` times events: it is then read straight from the
  /// system, as nanoseconds since ``continuousStart``, without the generic closure below
  /// (whose unspecialized `Clock` calls cost more, per event, than the rest of stamping it)
  /// and without `ContinuousClock.Instant`, whose resilient layout makes every copy a call.
  private let isContinuous: Bool
  /// The continuous clock's reading when recording started, in nanoseconds.
  private let continuousStart: Int64
  private let elapsed: () -> Duration

  init(limit: TraceLimit, clock: any Clock<Duration>) {
    if case .firstEvents(let count) = limit { cap = count } else { cap = .max }
    if clock is ContinuousClock {
      isContinuous = true
      continuousStart = Self.continuousNanoseconds()
      elapsed = { Duration.zero }
    } else {
      isContinuous = false
      continuousStart = 0
      elapsed = Self.stopwatch(clock)
    }
  }

  private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }

  /// The continuous clock now, in nanoseconds: the clock `ContinuousClock` reads (on Linux,
  /// `CLOCK_BOOTTIME`; elsewhere `CLOCK_MONOTONIC_RAW`/`CLOCK_MONOTONIC`, which also keep
  /// counting while the system sleeps where `ContinuousClock` uses them).
  @inline(__always)
  private static func continuousNanoseconds() -> Int64 {
    var time = timespec()
    #if os(Linux)
    clock_gettime(CLOCK_BOOTTIME, &time)
    #elseif canImport(Darwin)
    clock_gettime(CLOCK_MONOTONIC_RAW, &time)
    #else
    clock_gettime(CLOCK_MONOTONIC, &time)
    #endif
    return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
  }

  /// The time since recording started.
  @inline(__always)
  private func now() -> Duration {
    if isContinuous {
      let nanoseconds = Self.continuousNanoseconds() &- continuousStart
      // A duration is its attoseconds as a 128-bit integer: the full-width product, built
      // inline (the public initializers are calls into the standard library).
      let (high, low) = nanoseconds.multipliedFullWidth(by: 1_000_000_000)
      return Duration(_high: high, low: low)
    }
    return elapsed()
  }

  /// The next event's sequence number and time, or `nil` when the cap drops it.
  @inline(__always)
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
