import Foundation
import ReactorDiagrams
import ReactorTracing
import Testing

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
    let laidOut = try LaidOutGraph(machines.dotGraph())

    #expect(laidOut.clusters.count == machines.machines.count)
    #expect(laidOut.nodes.count >= machines.machines.map(\.graph.states.count).reduce(0, +))
    #expect(laidOut.edgeTexts.contains { $0.text.contains(" of 7 reactors") })
    #expect(laidOut.overflowingTexts == [])
    #expect(laidOut.edgeTextsOverNodes == [])
    #expect(laidOut.overlappingTexts == [])
    #expect(laidOut.clusterProblems == [])
    // Self-loop labels stay inside their cluster (they are padded on both ends). The edit
    // screen's long back edge (`setSaving(false) ← save ×2`) is not: dot draws its label
    // across the cluster's right border. Open; seen in the demo's PNG.
    withKnownIssue(
      "dot draws a long back edge's label across its cluster's border", isIntermittent: true
    ) {
      #expect(laidOut.edgeTextsLeavingClusters == [])
    }
    #expect(!laidOut.edgeTextsLeavingClusters.contains { $0.contains("stream taskService") })
  }

  @Test(arguments: [TextMeasurement.estimated, .shaped])
  func hostileTypesAndLabelsStayInsideTheirBoxes(measurement: TextMeasurement) throws {
    let machines = try SessionTransitions(session: SessionTrace(bytes: hostileSessionBytes()))
    let laidOut = try LaidOutGraph(machines.dotGraph(), textMeasurement: measurement)

    #expect(laidOut.clusters.count == 3)
    #expect(laidOut.overflowingTexts == [])
    #expect(laidOut.edgeTextsOverNodes == [])
    #expect(laidOut.overlappingTexts == [])
    #expect(laidOut.clusterProblems == [])
    let svg = try GraphvizRenderer(textMeasurement: measurement)
      .render(machines.dotGraph(), format: .svg)
    GeneratedLabelTests.expectValidSVG(svg, "hostile session transitions")
  }

  @Test func theExampleSessionsMachinesRenderAsPNG() throws {
    let machines = try SessionTransitions(session: SessionTrace(contentsOf: sampleSessionPath()))

    let png = try GraphvizRenderer().render(machines.dotGraph(), format: .png)
    try saveForInspection(png, named: "taskapp-transitions.png")

    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
  }
}
