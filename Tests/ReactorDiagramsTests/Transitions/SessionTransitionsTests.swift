import Foundation
import ReactorStateMachines
import ReactorTracing
import Testing

@testable import ReactorDiagrams

@Suite("State machines of a session")
struct SessionTransitionsTests {
  @Test func theExampleSessionHasOneMachinePerTypeInTheOrderTheTypesCame() throws {
    let machines = try SessionTransitions(session: SessionTrace(contentsOf: sampleSessionPath()))

    #expect(
      machines.machines.map(\.type) == [
        "ReactorExamples.TaskAppListReactor", "ReactorExamples.TaskEditReactor",
        "ReactorExamples.TaskCellReactor",
      ])
    #expect(machines.machines.map(\.reactorCount) == [1, 1, 7])
    #expect(machines.machines.map(\.graph.traceCount) == [1, 1, 7])
    let cells = try #require(machines.machines.last?.graph)
    #expect(cells.traceCount(taking: cells.transitions.indices) == 2)
  }

  @Test func aStreamElementTheListsOwnActionPublishedIsCreditedToThatAction() throws {
    let machines = try SessionTransitions(session: SessionTrace(contentsOf: sampleSessionPath()))
    let list = try #require(machines.machines.first?.graph)
    let credits = Dictionary(
      list.transitions.map { ($0.mutation, $0.action) }, uniquingKeysWith: { first, _ in first })
    // The list's own `delete` effect published the element that removes row 3.
    #expect(credits["remove(id: 3)"] == "delete(id: 3)")
    // The edit screen's `save` published the new task: another reactor's, the stream's.
    #expect(
      credits.first { $0.key.hasPrefix("insert(") }?.value == "stream taskService",
      "\(credits)")
  }

  @Test func anUnknownTypeNamesTheSessionsTypes() throws {
    #expect(
      throws: SessionTransitionsError.unknownReactorType(
        "Nope", known: ["TaskAppListReactor", "TaskCellReactor", "TaskEditReactor"])
    ) {
      try SessionTransitions(
        session: SessionTrace(contentsOf: sampleSessionPath()), reactorType: "Nope")
    }
  }

  @Test(arguments: [false, true])
  func noTextLeavesItsBoxNoEdgeLabelCrossesANodeAndClustersStayApart(keyed: Bool) throws {
    // Inferred (the cells one node) and keyed on the task's state (the cells two nodes).
    let session = try SessionTrace(contentsOf: sampleSessionPath())
    let machines =
      keyed
      ? try SessionTransitions(session: session, reactorType: "TaskCellReactor") { _, _ in
        StateAbstraction(keys: ["task.isDone", "task.title"])
      }
      : try SessionTransitions(session: session)
    let laidOut = try LaidOutGraph(machines.pinnedGraph(), engine: .nop2)

    #expect(laidOut.clusters.count == machines.machines.count)
    #expect(laidOut.nodes.count >= machines.machines.map(\.graph.states.count).reduce(0, +))
    #expect(laidOut.edgeTexts.contains { $0.text.contains(" of 7 reactors") })
    #expect(laidOut.overflowingTexts == [])
    #expect(laidOut.edgeTextsOverNodes == [])
    #expect(laidOut.overlappingTexts == [])
    #expect(laidOut.clusterProblems == [])
    // The edit screen's long back edge (`setSaving(false) ← save ×2`) included: dot drew its
    // label across its cluster's right border when the page was one dot layout of clusters.
    #expect(laidOut.edgeTextsLeavingClusters == [])
  }

  @Test func eachMachineIsDrawnWhereDotPutItAloneInABoxHoldingAllItsLabels() throws {
    let machines = try SessionTransitions(session: SessionTrace(contentsOf: sampleSessionPath()))
    let page = try machines.pinnedGraph()
    let laidOut = try LaidOutGraph(page, engine: .nop2)

    #expect(page.attributes["layout"] == "nop2")
    #expect(page.nodes.allSatisfy { $0.attributes["pos"] != nil })
    #expect(page.edges.allSatisfy { $0.attributes["pos"] != nil })
    // Side by side, in the order the types came, tops aligned. (Graphviz lists clusters in
    // an order of its own.)
    let clusters = laidOut.clusters.sorted { $0.box.minX < $1.box.minX }
    #expect(
      clusters.map { $0.texts.map(\.text).joined().trimmingCharacters(in: .whitespaces) } == [
        "TaskAppListReactor · 1 reactor merged", "TaskEditReactor · 1 reactor merged",
        "TaskCellReactor · 7 reactors merged",
      ])
    #expect(zip(clusters, clusters.dropFirst()).allSatisfy { $0.box.maxX < $1.box.minX })
    #expect(Set(clusters.map(\.box.maxY)).count == 1)
    // The edit screen's machine is the one `dot` draws for it alone, moved: the same
    // distances between its states.
    let edit = try machines.machines[1].graph.dotGraph(instanceNoun: "reactors")
    let alone = try LaidOutGraph(edit)
    let placed = laidOut.nodes.filter { clusters[1].nodeNames.contains($0.name) }
    try #require(placed.count == alone.nodes.count)
    let dx = placed[0].box.minX - alone.nodes[0].box.minX
    let dy = placed[0].box.minY - alone.nodes[0].box.minY
    for (moved, original) in zip(placed, alone.nodes) {
      #expect(abs(moved.box.minX - original.box.minX - dx) < 0.02)
      #expect(abs(moved.box.minY - original.box.minY - dy) < 0.02)
    }
  }

  @Test(arguments: [TextMeasurement.estimated, .shaped])
  func hostileTypesAndLabelsStayInsideTheirBoxes(measurement: TextMeasurement) throws {
    let machines = try SessionTransitions(session: SessionTrace(bytes: hostileSessionBytes()))
    let page = try machines.pinnedGraph(textMeasurement: measurement)
    let laidOut = try LaidOutGraph(page, engine: .nop2, textMeasurement: measurement)

    #expect(laidOut.clusters.count == 3)
    #expect(laidOut.overflowingTexts == [])
    #expect(laidOut.edgeTextsOverNodes == [])
    #expect(laidOut.overlappingTexts == [])
    #expect(laidOut.clusterProblems == [])
    #expect(laidOut.edgeTextsLeavingClusters == [])
    let svg = try GraphvizRenderer(textMeasurement: measurement)
      .render(page, engine: .nop2, format: .svg)
    GeneratedLabelTests.expectValidSVG(svg, "hostile session transitions")
    try saveForInspection(svg, named: "hostile-session-transitions-\(measurement).svg")
  }

  @Test func theExampleSessionsMachinesRenderAsPNG() throws {
    let machines = try SessionTransitions(session: SessionTrace(contentsOf: sampleSessionPath()))

    let png = try GraphvizRenderer().render(machines.pinnedGraph(), engine: .nop2, format: .png)
    try saveForInspection(png, named: "taskapp-transitions.png")

    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
  }

  @Test func aSessionsMachinesAreMermaidCompositeStatesEachWithItsOwnIds() throws {
    let machines = try SessionTransitions(session: SessionTrace(contentsOf: sampleSessionPath()))
    let lines = try machines.mermaid().split(separator: "\n").map(String.init)
    #expect(lines.first == "stateDiagram-v2")
    // One composite state per type, titled as its cluster on the DOT page.
    let opening = lines.indices.filter { lines[$0].hasSuffix(" {") }
    #expect(
      opening.map { lines[$0] } == [
        #"    state "TaskAppListReactor · 1 reactor merged" as t1 {"#,
        #"    state "TaskEditReactor · 1 reactor merged" as t2 {"#,
        #"    state "TaskCellReactor · 7 reactors merged" as t3 {"#,
      ])
    // Inside each, the machine's own lines: its states declared, its edges between them, and
    // each of the cells' edges saying how many of the 7 took it.
    for (number, machine) in machines.machines.enumerated() {
      let start = opening[number] + 1
      let end = try #require(lines[start...].firstIndex(of: "    }"))
      let body = lines[start..<end]
      let prefix = "t\(number + 1)_"
      #expect(
        Array(body)
          == machine.graph.mermaidBody(
            idPrefix: prefix, indent: "        ", instanceNoun: machine.instanceNoun))
      let declared = Set(machine.graph.states.map { prefix + $0.id })
      for line in body where line.contains(" --> ") && !line.contains("[*]") {
        let ends = line.trimmingCharacters(in: .whitespaces).split(separator: ":")[0]
          .components(separatedBy: " --> ")
        #expect(declared.contains(ends[0]) && declared.contains(ends[1]), "\(line)")
      }
      if number == 2 {
        let edges = body.filter { $0.hasPrefix("        t3_") && $0.contains(" --> t3_") }
        #expect(!edges.isEmpty)
        #expect(edges.allSatisfy { $0.contains(" of 7 reactors") }, "\(edges)")
      }
    }
    #expect(lines.last?.hasPrefix("    class t1_") == true)
    #expect(!lines.contains { $0.contains("\u{A0}") })
  }

  @Test func aLoneTraceIsStillDrawnAsItsOwnMachine() throws {
    let path = sampleSessionPath().replacing("taskapp.session.jsonl", with: "counter.trace.jsonl")
    let machines = try SessionTransitions(files: [ReactorLanes(path: path)])
    #expect(try machines.mermaid() == machines.lone?.mermaid())
  }
}
