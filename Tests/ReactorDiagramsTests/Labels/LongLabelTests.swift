import Foundation
import ReactorDiagrams
import ReactorStateMachines
import ReactorTracing
import Testing

/// Labels far longer than any diagram can show: each line reaching Graphviz is cut to 300
/// characters with `…`, so no diagram grows past what `dot` accepts (no edge, and so no
/// page, longer than 65,535 points).
@Suite("Labels cut to a bound before Graphviz")
struct LongLabelTests {
  /// The TaskList trace with every effect named, and its first mutation labelled, with
  /// 60,000 characters.
  static func longLabelTracePath() throws -> String {
    let long = String(repeating: "x", count: 60_000)
    let text = try String(contentsOfFile: sampleTracePath("tasklist"), encoding: .utf8)
      .replacing(/"name":"[^"]*"/, with: #""name":""# + long + "\"")
      .replacing(#""label":"setTasks("#, with: #""label":""# + long + "(", maxReplacements: 1)
    let path = NSTemporaryDirectory() + "reactor-trace-long-label-\(UUID().uuidString).trace.jsonl"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Every line of every label the graph hands Graphviz.
  static func labelLines(_ graph: DOTGraph) -> [Substring] {
    let text = graph.serialized()
    return text.matches(of: /"label"="((?:[^"\\]|\\.)*)"/).flatMap {
      $0.output.1.split(separator: "\\n")
    }
  }

  /// The width of the graph as `engine` lays it out, in points.
  static func laidOutWidth(_ graph: DOTGraph, engine: LayoutEngine) throws -> Double {
    let bytes = try GraphvizRenderer().render(graph, engine: engine, format: .json)
    let root = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] ?? [:]
    let box = (root["bb"] as? String ?? "").split(separator: ",").compactMap { Double($0) }
    return box.count == 4 ? box[2] - box[0] : .infinity
  }

  @Test func aTimelineOfA60000CharacterEffectNameStaysWithinWhatDotAccepts() throws {
    let path = try Self.longLabelTracePath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let timeline = try TimelineDiagram(path: path)
    #expect(timeline.width() < 65_535, "\(timeline.width())")
    let graph = timeline.dotGraph()
    #expect(Self.labelLines(graph).allSatisfy { $0.count <= 300 })
    #expect(Self.labelLines(graph).contains { $0.hasSuffix("…") })
    #expect(try Self.laidOutWidth(graph, engine: .nop) < 65_535)
  }

  @Test func aSequenceDiagramAndTransitionsOfThemStayWithinTheBoundToo() throws {
    let path = try Self.longLabelTracePath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let sequence = try SequenceDiagram(path: path).dotGraph()
    #expect(Self.labelLines(sequence).allSatisfy { $0.count <= 300 })
    #expect(try Self.laidOutWidth(sequence, engine: .nop) < 65_535)
    let transitions = try TransitionGraph(tracesAt: [path]).dotGraph()
    #expect(Self.labelLines(transitions).allSatisfy { $0.count <= 300 })
    #expect(try Self.laidOutWidth(transitions, engine: .dot) < 65_535)
  }

  @Test func anHTMLLabelsLinesAreCutToo() {
    var graph = DOTGraph()
    graph.addNode(label: .html(DOTHTMLLabel(String(repeating: "y", count: 1_000) + "\nshort")))
    let text = graph.serialized()
    #expect(text.contains("<" + String(repeating: "y", count: 299) + "…<BR/>short>"), "\(text)")
    #expect(!text.contains(String(repeating: "y", count: 300)))
  }
}
