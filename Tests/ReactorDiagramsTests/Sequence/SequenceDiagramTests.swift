import Foundation
import ReactorDiagrams
import ReactorTracing
import Testing

/// The example app's session (issue 28): 9 reactors, 57 events.
func sampleSessionPath(filePath: String = #filePath) -> String {
  URL(fileURLWithPath: filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../Traces/taskapp.session.jsonl").standardized.path
}

@Suite("Sequence diagram")
struct SequenceDiagramTests {
  static let session = sampleSessionPath()

  /// The tooltips of the edges leaving `node`, and where they go.
  static func outgoing(_ graph: DOTGraph) -> [DOTNode.ID: [DOTEdge]] {
    Dictionary(grouping: graph.edges, by: \.tail)
  }

  static func tooltip(_ attributes: [String: DOTValue]) -> String {
    if case .string(let text)? = attributes["tooltip"] { return text }
    return ""
  }

  @Test func theDiagramLeadsFromTheTapToTheListsChangeOfRowThreeThroughTheService() throws {
    let sequence = try SequenceDiagram(path: Self.session)
    let graph = sequence.dotGraph()
    let edges = graph.edges.map { (edge: $0, tooltip: Self.tooltip($0.attributes)) }

    // The user's tap: the action delete(id: 3) sent to the list by the user.
    let tap = try #require(
      edges.first {
        $0.tooltip.hasPrefix("action #2 delete(id: 3) to list #1")
          && $0.tooltip.hasSuffix("from user")
      })
    // The list's mutation of row 3 (cells[2]), delivered by the task service.
    let change = try #require(
      edges.first {
        $0.tooltip == "mutation #5 remove(id: 3) of list #1 · TaskAppListReactor ← taskService"
      })

    // Follow the arrows from the tap: every edge leads on from where the last one ended.
    let outgoing = Self.outgoing(graph)
    var cameFrom: [DOTNode.ID: DOTEdge] = [:]
    var queue = [tap.edge.head]
    var seen: Set<DOTNode.ID> = [tap.edge.head]
    while !queue.isEmpty {
      let node = queue.removeFirst()
      for edge in outgoing[node, default: []] where seen.insert(edge.head).inserted {
        cameFrom[edge.head] = edge
        queue.append(edge.head)
      }
    }
    try #require(seen.contains(change.edge.head), "no path from the tap to the change")
    var path: [String] = []
    var node = change.edge.head
    while let edge = cameFrom[node] {
      path.insert(Self.tooltip(edge.attributes), at: 0)
      node = edge.tail
    }
    path.insert(tap.tooltip, at: 0)
    #expect(
      path == [
        "action #2 delete(id: 3) to list #1 · TaskAppListReactor from user",
        "action #2 starts delete #2",
        "thread of delete #2",
        "list #1 · TaskAppListReactor (reactor 1, action 2, effect 2) publishes to taskService",
        "taskService delivers",
        "mutation #5 remove(id: 3) of list #1 · TaskAppListReactor ← taskService",
      ], "\(path)")
  }

  @Test func theEditScreensSaveReachesTheRowItEditedThroughTheService() throws {
    let graph = try SequenceDiagram(path: Self.session).dotGraph()
    let tooltips = graph.edges.map { Self.tooltip($0.attributes) }

    #expect(
      tooltips.contains(
        "edit #2 · TaskEditReactor (reactor 2, action 5, effect 2) publishes to taskService"))
    #expect(
      tooltips.contains {
        $0.hasPrefix("mutation #1 setTask(") && $0.hasSuffix("of TaskCellReactor #4 ← taskService")
      })
  }

  @Test func participantsAreTheUserTheReactorsAndTheService() throws {
    let sequence = try SequenceDiagram(path: Self.session)
    let svg = try renderSVG(sequence.dotGraph(), engine: .nop)

    #expect(sequence.eventCount == 56)
    #expect(sequence.reactorIDs == Array(1...9))
    #expect(svg.texts.contains("user"))
    #expect(svg.texts.contains("list"))
    #expect(svg.texts.contains("#1 · TaskAppListReactor"))
    #expect(svg.texts.contains("TaskCellReactor"))
    #expect(svg.texts.contains("taskService"))
    #expect(svg.texts.contains("fetch tasks #1"))
    #expect(svg.texts.contains("finished"))
    #expect(svg.texts.contains("isLoading: false → true"))
  }

  @Test func oneReactorKeepsItsOwnEventsAndShowsWhoElseSentThem() throws {
    let sequence = try SequenceDiagram(path: Self.session, reactors: [4])
    let svg = try renderSVG(sequence.dotGraph(), engine: .nop)

    #expect(sequence.reactorIDs == [4])
    // Reactor 4 was created by the list, left out: that arrow comes from "other reactors",
    // as does the edit screen's save that reached it through the service.
    #expect(svg.texts.contains("other reactors"))
    #expect(svg.texts.contains("taskService"))
    #expect(!svg.texts.contains("list"))
  }

  @Test func aWindowStartsWithTheReactorsAliveAndTheEffectsRunning() throws {
    let sequence = try SequenceDiagram(path: Self.session, sequences: 42...44)
    let graph = sequence.dotGraph()
    let svg = try renderSVG(graph, engine: .nop)

    #expect(sequence.eventCount == 3)
    #expect(svg.texts.contains("#42  500 ms"))
    #expect(!svg.texts.contains { $0.hasPrefix("#41") })
    // The delete effect started before the window: its box is open at the top.
    let boxes = graph.nodes.map { Self.tooltip($0.attributes) }
    #expect(boxes.contains("delete #2 of list #1 · TaskAppListReactor: finished"))
  }

  @Test func pagesSplitTheRowsAndRepeatTheParticipants() throws {
    let sequence = try SequenceDiagram(path: Self.session)
    let pages = sequence.pages(eventsPerPage: 20)

    #expect(pages.count == 3)
    for page in pages {
      let svg = try renderSVG(page, engine: .nop)
      #expect(svg.texts.contains("list"))
      #expect(svg.texts.contains("taskService"))
    }
    #expect(sequence.pages(maximumHeight: 1_000).count > 1)
  }

  @Test func mermaidIsASequenceDiagramOfTheSameMessages() throws {
    let mermaid = try SequenceDiagram(path: Self.session).mermaid()
    let lines = mermaid.split(separator: "\n").map(String.init)

    #expect(lines.first == "sequenceDiagram")
    #expect(lines.contains("    actor user"))
    #expect(lines.contains("    participant r1 as list #35;1 · TaskAppListReactor"))
    #expect(lines.contains("    user->>r1: delete(id#58; 3) (#35;40)"))
    #expect(lines.contains("    r1-)s1: publishes (#35;42)"))
    #expect(lines.contains("    s1->>r1: remove(id#58; 3) (#35;42)"))
    #expect(lines.contains("    create participant r3 as TaskCellReactor #35;3"))
    #expect(
      lines.filter { $0.hasPrefix("    activate") }.count
        == lines.filter { $0.hasPrefix("    deactivate") }.count)
  }
}

@Suite("Sequence pictures")
struct SequencePictureTests {
  @Test(arguments: [TextMeasurement.estimated, .shaped])
  func noTextLeavesItsBoxAndNoTextCoversAnother(measurement: TextMeasurement) throws {
    let sequence = try SequenceDiagram(path: sampleSessionPath())
    let laidOut = try LaidOutGraph(
      sequence.dotGraph(), engine: .nop, textMeasurement: measurement)

    #expect(laidOut.nodes.count > sequence.eventCount)
    #expect(laidOut.overflowingTexts == [])
    #expect(laidOut.edgeTextsOverNodes == [])
    #expect(laidOut.overlappingTexts == [])
    #expect(laidOut.clusterProblems == [])
  }

  @Test(arguments: [TextMeasurement.estimated, .shaped])
  func hostileNamesStayInsideTheirBoxes(measurement: TextMeasurement) throws {
    let sequence = try SequenceDiagram(reader: SessionReader(bytes: hostileSessionBytes()))
    let laidOut = try LaidOutGraph(
      sequence.dotGraph(), engine: .nop, textMeasurement: measurement)

    #expect(laidOut.nodes.contains { $0.texts.contains { $0.text.contains("\\u{202E}evil") } })
    #expect(laidOut.overflowingTexts == [])
    #expect(laidOut.edgeTextsOverNodes == [])
    #expect(laidOut.overlappingTexts == [])
  }

  @Test func theExampleSessionRendersAsPNG() throws {
    let sequence = try SequenceDiagram(path: sampleSessionPath())

    let png = try GraphvizRenderer().render(sequence.dotGraph(), engine: .nop, format: .png)
    try saveForInspection(png, named: "taskapp-sequence.png")

    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
  }
}
