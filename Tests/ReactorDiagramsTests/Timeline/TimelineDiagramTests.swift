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
    #expect(svg.edgeCount == 3 + 1)  // and the time axis
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
      pages[3].label
        == .text("ReactorExamples.CounterReactor  ·  events #16–#18, at 1.5 s  ·  page 4 of 4"))
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
    let timeline = try TimelineDiagram(reader: SessionReader(bytes: fixture.bytes))
    let dot = timeline.dotGraph().serialized()
    let svg = try GraphvizRenderer().render(dot: dot, engine: .nop, format: .svg)

    // Speed is measured by the benchmark, never asserted here.
    #expect(timeline.eventCount == 10_000)
    #expect(dot.contains(#""pos"="#))
    #expect(!svg.isEmpty)
  }
}

@Suite("Timeline pictures")
struct TimelinePictureTests {
  static let examples = ["counter", "github-search", "tasklist", "profile", "feed"]

  @Test(arguments: examples, [TextMeasurement.estimated, .shaped])
  func noTextLeavesItsBox(example: String, measurement: TextMeasurement) throws {
    let timeline = try TimelineDiagram(path: sampleTracePath(example))
    let laidOut = try LaidOutGraph(
      timeline.dotGraph(), engine: .nop, textMeasurement: measurement)

    #expect(laidOut.nodes.count > timeline.eventCount)
    #expect(laidOut.overflowingTexts == [])
  }

  @Test func longLabelsWrapBetweenTokensNeverInsideAWord() throws {
    var fixture = try TraceFixture(initialState: ["isLoadingNextPage": false])
    fixture.action(1, "loadNextPage")
    fixture.mutation("setLoadingNextPage(false)", action: 1, state: ["isLoadingNextPage": false])
    fixture.action(2, "a rather long action label with many words in it to wrap")
    fixture.mutation(
      "setRepos([\"octo/reactor-1\", \"octo/reactor-2\", \"octo/reactor-3\"], nextPage: 2)",
      action: 2, state: ["isLoadingNextPage": true])
    let timeline = try TimelineDiagram(reader: SessionReader(bytes: fixture.bytes))

    let labels = timeline.dotGraph().nodes.compactMap { node -> String? in
      guard case .text(let text) = node.label else { return nil }
      return text
    }

    #expect(labels.contains("setLoadingNextPage(false)"))
    #expect(labels.contains("a rather long action label with\nmany words in it to wrap"))
    for label in labels {
      for line in label.split(separator: "\n") {
        #expect(!line.hasPrefix(")"), "a line starts with a closing bracket: \(label)")
      }
    }
  }

  @Test func stateChangesSayWhatChanged() throws {
    let tasks = try TimelineDiagram(path: sampleTracePath("tasklist"))
    let search = try TimelineDiagram(path: sampleTracePath("github-search"))
    func notes(_ timeline: TimelineDiagram) -> [String] {
      timeline.dotGraph().nodes.compactMap { node -> String? in
        guard timeline.dotGraph().nodeDefaults(of: node.id)["shape"] == "note",
          case .text(let text) = node.label
        else { return nil }
        return text
      }
    }

    #expect(notes(tasks).contains("isLoading: false → true"))
    #expect(notes(tasks).contains("tasks: +3 items"))
    #expect(notes(tasks).contains("tasks[0].isDone: false → true"))
    #expect(notes(tasks).contains("tasks: −1 item"))
    #expect(notes(search).contains("query: \"r\" → \"re\""))
    #expect(notes(search).contains("nextPage: nil → 2\nrepos: +3 items"))
    #expect(!notes(search).joined().contains("valueUpdatedCount"))
  }

  @Test func theTimeAxisHasRoundTicksAndLongIdleGapsAreCompressed() throws {
    var fixture = try TraceFixture(initialState: ["count": 0])
    for (index, milliseconds) in [0, 100, 200, 300, 60_000, 60_100].enumerated() {
      fixture.time = .milliseconds(milliseconds)
      fixture.action(index + 1, "tap")
      fixture.mutation("set(\(index))", action: index + 1, state: ["count": .int(Int64(index))])
    }
    let timeline = try TimelineDiagram(reader: SessionReader(bytes: fixture.bytes))
    let texts = timeline.dotGraph().nodes.compactMap { node -> String? in
      guard case .text(let text) = node.label else { return nil }
      return text
    }

    #expect(texts.contains("0 ms\n┴"))
    #expect(texts.contains("idle\n59.7 s"))
    #expect(timeline.width() < 3_000)
  }

  @Test func theTitleAndLaneNamesSitAtTheLeft() throws {
    let timeline = try TimelineDiagram(path: sampleTracePath("counter"))
    let laidOut = try LaidOutGraph(timeline.dotGraph(), engine: .nop, textMeasurement: .estimated)
    let lanes = laidOut.nodes.filter { $0.texts.map(\.text) == ["actions"] }
    let leftmost = laidOut.nodes.map(\.box.minX).min() ?? 0

    #expect(timeline.dotGraph().attributes["labeljust"] == "l")
    #expect(lanes.count == 1)
    #expect(lanes.first.map { $0.box.minX - leftmost < 1 } == true)
  }

  @Test func aWideTimelineSplitsIntoPagesThatFitAWidth() throws {
    let timeline = try TimelineDiagram(path: sampleTracePath("github-search"))

    let pages = timeline.pages(maximumWidth: 1_500)

    #expect(timeline.width() > 1_500)
    #expect(pages.count > 1)
    for page in pages {
      let svg = try GraphvizRenderer(textMeasurement: .estimated)
        .render(page, engine: .nop, format: .svg)
      let text = String(decoding: svg, as: UTF8.self)
      let width = text.firstMatch(of: /width="(\d+)pt"/).flatMap { Double($0.1) } ?? .infinity
      #expect(width <= 1_500)
    }
  }
}

@Suite("Timeline text fitting")
struct TimelineTextFittingTests {
  /// Shaped text only: Graphviz's estimate counts each UTF-8 byte of a non-ASCII character as
  /// a character of its own, which moves no text (nodes are pinned and labels centred) but
  /// would report overflows that no viewer shows.
  @Test func hostileAndLongLabelsStayInsideTheirBoxes() throws {
    var fixture = try TraceFixture(initialState: ["text": ""])
    let long = String(repeating: "averyveryverylongtokenwithoutanybreak", count: 4)
    for (index, label) in (hostileLabels + [long, long + " and more words after it"]).enumerated() {
      fixture.action(index + 1, label)
      fixture.mutation(label, action: index + 1, state: ["text": .string(label)])
    }
    let timeline = try TimelineDiagram(reader: SessionReader(bytes: fixture.bytes))

    let laidOut = try LaidOutGraph(timeline.dotGraph(), engine: .nop, textMeasurement: .shaped)

    #expect(laidOut.overflowingTexts == [])
  }
}
