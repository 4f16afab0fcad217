import Foundation
import ReactorDiagrams
import ReactorTracing
import Testing

@Suite("Session timeline")
struct SessionTimelineTests {
  static func tooltip(_ attributes: [String: DOTValue]) -> String {
    if case .string(let text)? = attributes["tooltip"] { return text }
    return ""
  }

  @Test func eachReactorGetsItsLanesAndIdleOnesShareOne() throws {
    let timeline = try TimelineDiagram(path: sampleSessionPath())
    let svg = try renderSVG(timeline.dotGraph(), engine: .nop)

    #expect(timeline.eventCount == 43)
    #expect(timeline.reactorIDs == Array(1...9))
    #expect(svg.texts.contains("list · #1"))
    #expect(svg.texts.contains("edit · #2 TaskEditReactor"))
    #expect(svg.texts.contains("TaskCellReactor #3"))
    #expect(svg.texts.contains("stream taskService"))
    #expect(svg.texts.contains("idle"))
    #expect(
      svg.texts.contains {
        $0.hasPrefix("TaskCellReactor #5, TaskCellReactor #6")
          && $0.hasSuffix("nothing on this page")
      })
    // Reactor 4 has no action: its group has no action lane.
    #expect(svg.texts.filter { $0 == "actions" }.count == 3)
  }

  @Test func labelsNameTypesWithoutTheirModule() throws {
    let timeline = try TimelineDiagram(path: sampleSessionPath())
    let texts = try renderSVG(timeline.dotGraph(), engine: .nop).texts
    #expect(!texts.contains { $0.contains("ReactorExamples.") })
    #expect(texts.contains(#"insert(TaskItem(id: 4, title: "Buy"#))
  }

  @Test func causesAcrossReactorsAreArrowsFromTheSendingAction() throws {
    let graph = try TimelineDiagram(path: sampleSessionPath()).dotGraph()
    let causes = graph.edges.map { Self.tooltip($0.attributes) }.filter { $0.hasPrefix("reactor ") }

    #expect(
      causes == [
        "reactor 2 action #2 → reactor 1 mutation #4",
        "reactor 3 action #1 → reactor 3 mutation #1",
        "reactor 2 action #5 → reactor 4 mutation #1",
        "reactor 1 action #2 → reactor 1 mutation #5",
      ])
    // Each leads from an action's box to a mutation's box.
    let nodes = Dictionary(uniqueKeysWithValues: graph.nodes.map { ($0.id, $0) })
    for edge in graph.edges where Self.tooltip(edge.attributes).hasPrefix("reactor ") {
      #expect(Self.tooltip(try #require(nodes[edge.tail]).attributes).hasPrefix("action #"))
      #expect(Self.tooltip(try #require(nodes[edge.head]).attributes).hasPrefix("mutation "))
    }
  }

  @Test func chosenReactorsAndAWindowKeepOnlyTheirEvents() throws {
    let timeline = try TimelineDiagram(
      path: sampleSessionPath(), sequences: 30...45, reactors: [1, 4])
    let svg = try renderSVG(timeline.dotGraph(), engine: .nop)

    #expect(timeline.reactorIDs == [1, 4])
    #expect(timeline.eventCount == 6)
    #expect(!svg.texts.contains("edit · #2 TaskEditReactor"))
    #expect(svg.texts.contains("delete(id: 3)"))
  }

  @Test func pagesRepeatTheGroupsOfTheReactorsActiveOnThem() throws {
    let timeline = try TimelineDiagram(path: sampleSessionPath())
    let pages = timeline.pages(eventsPerPage: 15)

    #expect(pages.count == 3)
    #expect(timeline.pages(maximumWidth: 2_000).count > 1)
    #expect(timeline.width(eventsPerPage: 15) < timeline.width())
  }

  @Test(arguments: [TextMeasurement.estimated, .shaped])
  func noTextLeavesItsBoxAndNoTextCoversAnother(measurement: TextMeasurement) throws {
    let timeline = try TimelineDiagram(path: sampleSessionPath())
    let laidOut = try LaidOutGraph(
      timeline.dotGraph(), engine: .nop, textMeasurement: measurement)

    #expect(laidOut.nodes.count > timeline.eventCount)
    #expect(laidOut.overflowingTexts == [])
    #expect(laidOut.edgeTextsOverNodes == [])
    #expect(laidOut.overlappingTexts.filter { !$0.contains("┴") } == [])
    #expect(laidOut.clusterProblems == [])
  }

  @Test(arguments: [TextMeasurement.estimated, .shaped])
  func hostileNamesStayInsideTheirBoxes(measurement: TextMeasurement) throws {
    let timeline = try TimelineDiagram(reader: SessionReader(bytes: hostileSessionBytes()))
    let laidOut = try LaidOutGraph(
      timeline.dotGraph(), engine: .nop, textMeasurement: measurement)

    #expect(laidOut.nodes.contains { $0.texts.contains { $0.text.contains("\\u{202E}evil") } })
    #expect(laidOut.overflowingTexts == [])
    #expect(laidOut.edgeTextsOverNodes == [])
    #expect(laidOut.overlappingTexts.filter { !$0.contains("┴") } == [])
  }

  @Test func theExampleSessionRendersAsPNG() throws {
    let timeline = try TimelineDiagram(path: sampleSessionPath())

    let png = try GraphvizRenderer().render(timeline.dotGraph(), engine: .nop, format: .png)
    try saveForInspection(png, named: "taskapp-timeline.png")

    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
  }
}
