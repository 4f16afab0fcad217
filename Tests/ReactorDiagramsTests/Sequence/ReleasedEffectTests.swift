import Foundation
import ReactorDiagrams
import ReactorTracing
import Testing

/// The example app's session without the end of cell #3's `toggle` effect (its `seq` 26,
/// the later events renumbered): the cell is released at `seq` 51 with the effect in flight,
/// and the session ends with no effect running.
func releasedWhileRunningSessionPath() throws -> String {
  let text = try String(contentsOfFile: sampleSessionPath(), encoding: .utf8)
  var lines: [String] = []
  for line in text.split(separator: "\n") where !line.hasPrefix(#"{"seq":26,"#) {
    lines.append(
      String(line).replacing(/"(seq|createdDuring|during|observed)":(\d+)/) { match in
        let number = Int(match.output.2) ?? 0
        return "\"\(match.output.1)\":\(number > 26 ? number - 1 : number)"
      })
  }
  let path = NSTemporaryDirectory() + "reactor-trace-released-\(UUID().uuidString).session.jsonl"
  try (lines.joined(separator: "\n") + "\n").write(
    toFile: path, atomically: true, encoding: .utf8)
  return path
}

/// A reactor released while its effect runs: the diagrams end the effect at the release.
@Suite("Effects ended by their reactor's release")
struct ReleasedEffectTests {
  static func tooltip(_ attributes: [String: DOTValue]) -> String {
    if case .string(let text)? = attributes["tooltip"] { return text }
    return ""
  }

  @Test func theSessionEndsWithNoEffectRunning() throws {
    let path = try releasedWhileRunningSessionPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reader = try SessionReader(path: path)
    var end: SessionEvent.End?
    while let event = try reader.next() {
      if case .end(let last) = event.kind { end = last }
    }
    #expect(end?.runningEffects.isEmpty == true)
  }

  @Test func theSequenceDiagramClosesTheActivationAtTheRelease() throws {
    let path = try releasedWhileRunningSessionPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let graph = try SequenceDiagram(path: path).dotGraph()
    let tooltips = graph.nodes.map { Self.tooltip($0.attributes) }
    #expect(!tooltips.contains { $0.hasSuffix(": running") }, "\(tooltips)")
    let box = try #require(
      graph.nodes.first {
        Self.tooltip($0.attributes)
          == "toggle #1 of TaskCellReactor #3: still running when the reactor was released"
      })
    let cross = try #require(
      graph.nodes.first { Self.tooltip($0.attributes) == "TaskCellReactor #3 released" })
    // The box ends above the cross: its bottom (y grows upward in pinned positions) is not
    // below it.
    guard case .string(let boxPos)? = box.attributes["pos"],
      case .string(let crossPos)? = cross.attributes["pos"],
      case .string(let heightText)? = box.attributes["height"]
    else {
      Issue.record("no position")
      return
    }
    let boxCentre = try #require(Double(boxPos.split(separator: ",")[1].dropLast()))
    let crossCentre = try #require(Double(crossPos.split(separator: ",")[1].dropLast()))
    let height = try #require(Double(heightText)) * 72
    #expect(boxCentre - height / 2 >= crossCentre - 0.01)
  }

  @Test func theTimelineEndsTheBarAtTheRelease() throws {
    let path = try releasedWhileRunningSessionPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let graph = try TimelineDiagram(path: path).dotGraph()
    let tooltips = graph.nodes.map { Self.tooltip($0.attributes) }
    #expect(!tooltips.contains { $0.hasSuffix("\nrunning") }, "\(tooltips)")
    #expect(
      tooltips.contains(
        "effect #1 toggle\nstarted by action #1\nstill running when the reactor was released"))
    let labels = graph.nodes.compactMap { node -> String? in
      if case .text(let text) = node.label { return text }
      return nil
    }
    #expect(labels.contains("toggle #1 · released"))
  }

  @Test func timelinePagesDrawnOneAtATimeEndTheBarAsTheWholeTimelineDoes() throws {
    let path = try releasedWhileRunningSessionPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let whole = try TimelineDiagram(path: path)
    for size in [1, 2, 3, 5, 8, 13, whole.eventCount] {
      var pages = try TimelinePages(
        path: path, reader: SessionReader(path: path), eventsPerPage: size)
      var streamed: [String] = []
      while let page = try pages.next() { streamed.append(page.serialized()) }
      #expect(streamed == whole.pages(eventsPerPage: size).map { $0.serialized() }, "\(size)")
      #expect(!streamed.contains { $0.contains("\\nrunning\"") || $0.contains("· running") })
    }
  }

  @Test func mermaidDeactivatesTheReleasedReactorsEffect() throws {
    let path = try releasedWhileRunningSessionPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let mermaid = try SequenceDiagram(path: path).mermaid()
    let lines = mermaid.split(separator: "\n").map(String.init)
    let release = try #require(lines.firstIndex { $0.contains("Note over r3: released") })
    #expect(lines[release - 1] == "    deactivate r3")
  }
}
