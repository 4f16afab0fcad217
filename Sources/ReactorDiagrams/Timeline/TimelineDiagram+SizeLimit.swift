extension TimelineDiagram {
  /// Checks, before any DOT is built, that every page is within `limit`.
  ///
  /// - Parameters:
  ///   - eventsPerPage: The page size the diagram will be split into, or `nil` for one page
  ///     of every event.
  ///   - limit: The most events a page may hold.
  /// - Throws: ``TimelineDiagramError/tooLarge(events:eventsPerPage:limit:)``.
  public func checkSize(
    eventsPerPage: Int?, limit: TimelineSizeLimit = .standard
  ) throws(TimelineDiagramError) {
    let largestPage = min(eventsPerPage ?? eventCount, eventCount)
    guard largestPage <= limit.maximumEventsPerPage else {
      throw .tooLarge(events: eventCount, eventsPerPage: eventsPerPage, limit: limit)
    }
  }
}
