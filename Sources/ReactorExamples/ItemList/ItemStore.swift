public import ReactorCore

/// The items every screen of the list app shares: another screen adds items through it, and
/// every list merges its ``events`` (ReactorKit apps' global event stream).
@MainActor
public final class ItemStore {
  /// What another screen changed.
  public enum Event: Codable, Equatable, Sendable {
    /// An item was added to the section at `section`.
    case added(ListItem, section: Int)
  }

  /// The changes, delivered synchronously to every list that merged them.
  public let events = Relay<Event>()
  private let clock: any Clock<Duration>
  private let latency: Duration

  /// A store whose loads take `latency` on `clock`.
  public init(clock: any Clock<Duration>, latency: Duration = .milliseconds(100)) {
    self.clock = clock
    self.latency = latency
  }

  /// Loads the sections, after the latency: two sections, the second one empty.
  public func fetchSections() async throws -> [ItemSection] {
    try await clock.sleep(for: latency)
    return [
      ItemSection(header: "Today", items: [ListItem(id: 1, title: "Port the reactors")]),
      ItemSection(header: "Later", items: []),
    ]
  }

  /// Publishes `event`, as another screen does when it adds an item.
  public func apply(_ event: Event) {
    events.accept(event)
  }
}
