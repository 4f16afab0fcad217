import ReactorDiagrams
import ReactorTestSupport
import ReactorTracing
import Testing

@Suite("Diagrams of a trace with a gap")
struct GapDiagramTests {
  /// The sample Counter trace with events 7 to 9 dropped.
  private func counterWithGap() throws -> Trace {
    try droppingEvents(at: 6..<9, from: Trace(contentsOf: sampleTracePath("counter")))
  }

  @Test func aTimelineDrawsTheGapAndCountsTheDroppedEvents() throws {
    let trace = try counterWithGap()
    let timeline = try TimelineDiagram(reader: SessionReader(bytes: trace.serialized))
    #expect(timeline.droppedEventCount == 3)
    let svg = try renderSVG(timeline.dotGraph(), engine: .nop)
    try saveForInspection(
      GraphvizRenderer().render(timeline.dotGraph(), engine: .nop, format: .png),
      named: "counter-gap-timeline.png")
    #expect(svg.texts.contains("⋯ 3 dropped"))
  }

  @Test func aTransitionGraphCountsTheDroppedEventsAndDrawsNoEdgeAcrossTheGap() throws {
    let trace = try counterWithGap()
    var graph = TransitionGraph()
    try graph.add(TraceReader(bytes: trace.serialized))
    #expect(graph.droppedEventCount == 3)
    var complete = TransitionGraph()
    try complete.add(TraceReader(path: sampleTracePath("counter")))
    #expect(graph.mutationCount < complete.mutationCount)
    #expect(complete.droppedEventCount == 0)
  }
}
