import ReactorDiagrams
import ReactorTracing
import Testing

@Suite("Timeline pages, drawn one at a time")
struct TimelinePagesTests {
  /// Traces with effects, streams, cancellations and failures, and the task app's session.
  private static let traces = [
    sampleTracePath("counter"), sampleTracePath("feed"), sampleTracePath("github-search"),
    sampleTracePath("tasklist"), sampleTracePath("profile"), sampleSessionPath(),
  ]

  /// The pages drawn one at a time from two passes over the trace.
  private func streamedPages(
    _ path: String, sequences: ClosedRange<Int>? = nil, reactors: Set<Int>? = nil,
    eventsPerPage: Int
  ) throws -> (pages: [DOTGraph], eventCount: Int, pageCount: Int) {
    var pages = try TimelinePages(
      path: path, reader: SessionReader(path: path), sequences: sequences, reactors: reactors,
      eventsPerPage: eventsPerPage)
    var graphs: [DOTGraph] = []
    while let page = try pages.next() { graphs.append(page) }
    return (graphs, pages.eventCount, pages.pageCount)
  }

  @Test(arguments: traces)
  func pagesDrawnOneAtATimeAreThePagesOfTheWholeTimeline(_ path: String) throws {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let whole = try TimelineDiagram(path: path)
    for size in [1, 2, 3, 5, 8, 13, whole.eventCount, whole.eventCount + 1] {
      let streamed = try streamedPages(path, eventsPerPage: size)
      let expected = whole.pages(eventsPerPage: size)
      #expect(streamed.pages.count == expected.count, "\(name), pages of \(size)")
      #expect(streamed.pageCount == expected.count)
      #expect(streamed.eventCount == whole.eventCount)
      for (index, (page, wanted)) in zip(streamed.pages, expected).enumerated() {
        #expect(
          page.serialized() == wanted.serialized(), "\(name), page \(index + 1) of \(size)")
      }
    }
  }

  @Test(arguments: traces)
  func aWindowIsPagedAsTheWholeTimelineOfThatWindow(_ path: String) throws {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let all = try TimelineDiagram(path: path).eventCount
    for window in [3...(all - 2), 2...2, (all + 5)...(all + 9)] {
      let whole = try TimelineDiagram(path: path, sequences: window)
      let streamed = try streamedPages(path, sequences: window, eventsPerPage: 4)
      #expect(streamed.eventCount == whole.eventCount)
      #expect(
        streamed.pages.map { $0.serialized() }
          == whole.pages(eventsPerPage: 4).map { $0.serialized() }, "\(name), \(window)")
    }
  }

  @Test func someReactorsOfASessionArePagedAsTheWholeTimelineOfThem() throws {
    let path = sampleSessionPath()
    for reactors: Set<Int> in [[1], [2, 4], [3, 9]] {
      let whole = try TimelineDiagram(path: path, sequences: 5...40, reactors: reactors)
      let streamed = try streamedPages(
        path, sequences: 5...40, reactors: reactors, eventsPerPage: 3)
      #expect(streamed.eventCount == whole.eventCount)
      #expect(
        streamed.pages.map { $0.serialized() }
          == whole.pages(eventsPerPage: 3).map { $0.serialized() }, "\(reactors)")
    }
  }

  @Test func aPageLargerThanTheLimitIsRefusedBeforeAnyPageIsDrawn() throws {
    let path = sampleTracePath("feed")
    let pages = try TimelinePages(
      path: path, reader: SessionReader(path: path), eventsPerPage: 10)
    #expect(throws: TimelineDiagramError.self) {
      try pages.checkSize(limit: TimelineSizeLimit(maximumEventsPerPage: 5))
    }
    try pages.checkSize(limit: TimelineSizeLimit(maximumEventsPerPage: 10))
  }
}
