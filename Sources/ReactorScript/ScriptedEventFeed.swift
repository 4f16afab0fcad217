public import Clocks
import ReactorTracing

/// Advances a run's test clock, handing each scripted event to the reactor's fakes when the
/// clock reaches its time, before any action at the same time (``ScriptOrder``).
///
/// Mutate replay takes its `advance` step, so a trace's scripted events reach the fakes
/// again at their recorded times:
///
/// ```swift
/// let clock = TestClock()
/// let service = TaskService(clock: clock)
/// let feed = try ScriptedEventFeed(
///   metadata: header.metadata, as: TaskEdit.self, clock: clock, deliver: service.apply)
/// let result = try await MutateReplay.run(
///   path: path, through: TaskListReactor(service: service), clock: clock,
///   advance: { await feed.advance(by: $0) })
/// ```
@MainActor
public final class ScriptedEventFeed<Event> {
  private var pending: ArraySlice<(time: Duration, event: Event)>
  private let clock: TestClock<Duration>
  private let deliver: @MainActor (Event) -> Void
  private var now = Duration.zero

  /// A feed of `events`, sorted by time.
  public init(
    events: [(Duration, Event)], clock: TestClock<Duration>,
    deliver: @escaping @MainActor (Event) -> Void
  ) {
    pending = events.map { (time: $0.0, event: $0.1) }[...]
    self.clock = clock
    self.deliver = deliver
  }

  /// Advances the clock by `duration`, stopping at each event's time to hand it over.
  public func advance(by duration: Duration) async {
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

extension ScriptedEventFeed where Event: Decodable {
  /// A feed of the scripted events a trace's metadata keeps (`script.events`), decoded as
  /// `Event`.
  /// - Throws: ``ScriptError/unusableEvents(reason:)`` when the metadata is malformed or an
  ///   event is not an `Event`.
  public convenience init(
    metadata: [String: String], as type: Event.Type, clock: TestClock<Duration>,
    deliver: @escaping @MainActor (Event) -> Void
  ) throws(ScriptError) {
    var events: [(Duration, Event)] = []
    for event in try ScriptedEvents(metadata: metadata).events {
      do {
        events.append((event.time, try ScriptCase.decode(Event.self, from: event.value)))
      } catch {
        throw .unusableEvents(reason: "scripted event \(event.value.serializedString): \(error)")
      }
    }
    self.init(events: events, clock: clock, deliver: deliver)
  }
}
