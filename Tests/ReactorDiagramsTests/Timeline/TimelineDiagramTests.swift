import Foundation
import ReactorDiagrams
import ReactorTracing
import Testing

@Suite("Timeline diagram")
struct TimelineDiagramTests {
  private static let counter = sampleTracePath("counter")
  private static let feed = sampleTracePath("feed")

  @Test func counterTimelineMatchesGoldenDOT() throws {
    let timeline = try TimelineDiagram(path: Self.counter)

    try expectGolden(timeline.dotGraph().serialized(), named: "counter-timeline.dot")
  }

  @Test func feedTimelineMatchesGoldenDOT() throws {
    let timeline = try TimelineDiagram(path: Self.feed)

    try expectGolden(timeline.dotGraph().serialized(), named: "feed-timeline.dot")
  }

  @Test func feedTimelineDrawsEveryOutcomeAndCause() throws {
    let timeline = try TimelineDiagram(path: Self.feed)

    let svg = try renderSVG(timeline.dotGraph(), engine: .nop)
    try saveForInspection(
      GraphvizRenderer().render(timeline.dotGraph(), engine: .nop, format: .png),
      named: "feed-timeline.png")

    #expect(timeline.eventCount == 19)
    #expect(svg.texts.contains("load slow #1 · finished"))
    #expect(svg.texts.contains("search #3 · cancelled"))
    #expect(svg.texts.contains("failing #5 · failed: network down"))
    #expect(svg.texts.contains("stream server"))
    #expect(svg.texts.contains("effects 3"))
    #expect(!svg.texts.contains("effects 4"))
    // Three mutations came from actions; the fourth from the server stream.
    #expect(svg.edgeCount == 3)
  }

  @Test func counterTimelineRendersAsPNG() throws {
    let timeline = try TimelineDiagram(path: Self.counter)

    let png = try GraphvizRenderer().render(timeline.dotGraph(), engine: .nop, format: .png)
    try saveForInspection(png, named: "counter-timeline.png")

    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
  }

  @Test func windowKeepsOnlyTheChosenSequences() throws {
    let timeline = try TimelineDiagram(path: Self.feed, sequences: 7...12)

    let svg = try renderSVG(timeline.dotGraph(), engine: .nop)

    #expect(timeline.eventCount == 6)
    #expect(svg.texts.contains("#7"))
    #expect(svg.texts.contains("#12"))
    #expect(!svg.texts.contains("#6"))
    #expect(!svg.texts.contains("#13"))
    // Effects started before the window are drawn from its left edge.
    #expect(svg.texts.contains("… load slow #1 · running"))
  }

  @Test func pagingSplitsEventsIntoSeveralGraphs() throws {
    let timeline = try TimelineDiagram(path: Self.counter)

    let pages = timeline.pages(eventsPerPage: 5)

    #expect(pages.count == 4)
    let ticks = try pages.map { page in
      try renderSVG(page, engine: .nop).texts.filter { $0.hasPrefix("#") }
    }
    #expect(ticks.map(\.count) == [5, 5, 5, 3])
    #expect(ticks[1].first == "#6")
    #expect(
      pages[3].label == .text("ReactorExamples.CounterReactor  ·  seq 16–18  ·  page 4 of 4"))
  }

  @Test func aTenThousandEventTimelineRendersWithPinnedPositions() throws {
    var fixture = try TraceFixture(initialState: ["count": 0, "isLoading": false])
    for index in 1...2_500 {
      fixture.action(index, "tap(\(index))")
      fixture.effectStart(index, action: index, name: "work")
      fixture.mutation(
        "set(\(index))", action: index, effect: index,
        state: ["count": .int(Int64(index)), "isLoading": .bool(index.isMultiple(of: 2))])
      fixture.effectEnd(index, outcome: index.isMultiple(of: 7) ? "cancelled" : "finished")
    }
    let timeline = try TimelineDiagram(reader: fixture.reader())
    let dot = timeline.dotGraph().serialized()
    let svg = try GraphvizRenderer().render(dot: dot, engine: .nop, format: .svg)

    // Speed is measured by the benchmark, never asserted here.
    #expect(timeline.eventCount == 10_000)
    #expect(dot.contains(#""pos"="#))
    #expect(!svg.isEmpty)
  }
}
