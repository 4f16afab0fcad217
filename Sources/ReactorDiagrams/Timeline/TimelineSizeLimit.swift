/// The most events one timeline page may hold; beyond it, rendering is refused before any
/// DOT is built, with a hint to split the timeline into pages.
///
/// A timeline's work and memory grow with its events: 10,000 events render in about a
/// second, while one page of a million took 9 GB and 81 seconds, and five million crashed
/// inside Graphviz. Paged, each page is checked on its own.
public struct TimelineSizeLimit: Sendable, Hashable {
  /// The most events on one page.
  public var maximumEventsPerPage: Int

  /// 20,000 events a page: a few seconds and a few hundred megabytes at most.
  public static let standard = TimelineSizeLimit(maximumEventsPerPage: 20_000)

  /// Creates a limit.
  /// - Parameter maximumEventsPerPage: The most events on one page.
  public init(maximumEventsPerPage: Int) {
    self.maximumEventsPerPage = maximumEventsPerPage
  }
}
