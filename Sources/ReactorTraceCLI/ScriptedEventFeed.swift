import Clocks

/// Advances a replay's test clock, handing each scripted event to the reactor's fakes when
/// the clock reaches its time, before any action at the same time.
@MainActor
final class ScriptedEventFeed<Event> {
  private var pending: ArraySlice<(time: Duration, event: Event)>
  private let clock: TestClock<Duration>
  private let deliver: @MainActor (Event) -> Void
  private var now = Duration.zero

  /// A feed of `events`, sorted by time.
  init(
    events: [(Duration, Event)], clock: TestClock<Duration>,
    deliver: @escaping @MainActor (Event) -> Void
  ) {
    pending = events.map { (time: $0.0, event: $0.1) }[...]
    self.clock = clock
    self.deliver = deliver
  }

  /// Advances the clock by `duration`, stopping at each event's time to hand it over.
  func advance(by duration: Duration) async {
    let target = now + duration
    while let next = pending.first, next.time <= target {
      await clock.advance(by: next.time - now)
      now = next.time
      deliver(next.event)
      pending.removeFirst()
    }
    await clock.advance(by: target - now)
    now = target
  }
}
