import Foundation
import ReactorDiagrams
import ReactorTracing
import Testing

@testable import ReactorInspector

private let tracesDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Traces").path

private func temporaryPath(_ suffix: String) -> String {
  FileManager.default.temporaryDirectory
    .appendingPathComponent("inspector-streaming-\(UUID().uuidString)\(suffix)").path
}

/// The task app's session with a gap of 3 dropped events after its first release (later
/// events numbered on), written to a temporary file; with `cut`, without its end line.
private func editedSession(cut: Bool) throws -> String {
  let session = try SessionTrace(contentsOf: tracesDirectory + "/taskapp.session.jsonl")
  let release = try #require(
    session.events.firstIndex { if case .released = $0.kind { true } else { false } })
  var events = Array(session.events[...release])
  let last = events[release]
  events.append(
    SessionEvent(
      sequence: last.sequence + 1, time: last.time,
      kind: .gap(TraceEvent.Gap(droppedEvents: 3))))
  for var event in session.events[(release + 1)...] {
    event.sequence += 1
    events.append(event)
  }
  if cut { events.removeLast() }
  let path = temporaryPath(".session.jsonl")
  try SessionTrace(header: session.header, events: events).write(to: path)
  return path
}

/// The page's embedded data, parsed.
private func pageData(_ html: [UInt8]) throws -> JSONValue {
  let text = String(decoding: html, as: UTF8.self)
  let opening = #"<script type="application/json" id="trace-data">"#
  let start = try #require(text.range(of: opening)).upperBound
  let end = try #require(text.range(of: "</script>", range: start..<text.endIndex)).lowerBound
  return try JSONValue(parsing: String(text[start..<end]))
}

@Suite("Inspector page written as the trace is read")
struct InspectorStreamingTests {
  @Test(arguments: [(false, 1 << 20), (true, 1 << 20), (true, 64)])
  func aSessionsLanesSplitOutInOnePassAreTheLanesOfTheWholeSession(cut: Bool, memory: Int) throws {
    let path = try editedSession(cut: cut)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let session = try SessionTrace(contentsOf: path)
    let lanes = try ReactorLanes(path: path, memoryLimit: memory)
    #expect(lanes.lanes.map(\.reactor) == session.reactors)
    #expect(session.reactors.count == 9)
    var gapsSeen = 0
    for lane in lanes.lanes {
      let expected = try #require(session.lane(of: lane.reactor.reactor))
      let reader = try lane.open()
      var events: [TraceEvent] = []
      while let event = try reader.next() { events.append(event) }
      #expect(Trace(header: reader.header, events: events) == expected)
      gapsSeen += events.count { if case .gap = $0.kind { true } else { false } }
    }
    // The reactors alive at the gap each have it in their lane.
    #expect(gapsSeen > 1)
  }

  @Test func aSessionsPageDrawsEachTypeFromItsLanesAsRenderTransitionsWould() throws {
    let path = tracesDirectory + "/taskapp.session.jsonl"
    let data = try pageData(try InspectorPage(tracePath: path).html)
    let session = try SessionTrace(contentsOf: path)
    let diagrams = try #require(data["diagrams"]?.arrayValue)
    #expect(diagrams.count == 3)
    for diagram in diagrams {
      let type = try #require(diagram["type"]?.stringValue)
      let reactors = session.reactors.filter { $0.type == type }.map(\.reactor)
      let lanes = reactors.compactMap { session.lane(of: $0)?.serialized }
      let openers: [() throws -> TraceReader] = lanes.map { bytes in
        { try TraceReader(bytes: bytes) }
      }
      var graph = TransitionGraph(abstraction: try StateAbstraction.inferred(fromTraces: openers))
      // Each lane with its reactor's id: its own stream elements are its actions' doing.
      for (open, reactor) in zip(openers, reactors) {
        try graph.add(try open(), sessionReactor: reactor)
      }
      let svg = String(
        decoding: try GraphvizRenderer().render(graph.dotGraph(), engine: .dot, format: .svg),
        as: UTF8.self)
      #expect(
        diagram["svg"]?.stringValue
          == String(svg[try #require(svg.range(of: "<svg")).lowerBound...]))
    }
  }

  @Test(arguments: ["counting", "github-search.trace.jsonl", "taskapp.session.jsonl"])
  func aPageWrittenInSmallPiecesThroughTheTemporaryFileIsThePageMadeInMemory(
    trace: String
  ) throws {
    // With pieces of 4 KiB and 2 KiB of snapshots, nodes and lanes in memory, the events go
    // out in many pieces and nearly everything else passes through the temporary file.
    let path =
      trace == "counting"
      ? try countingTrace(mutations: 2_000, padding: String(repeating: "x", count: 300))
      : tracesDirectory + "/" + trace
    defer { if trace == "counting" { try? FileManager.default.removeItem(atPath: path) } }
    let whole = try InspectorPage(tracePath: path)
    var pieces: [[UInt8]] = []
    var diagramData: [UInt8]? = []
    let summary = try InspectorPage.write(
      tracePath: path, options: InspectorOptions(),
      limits: InspectorPage.Limits(piece: 4_096, memory: 2_048), diagramData: &diagramData
    ) { pieces.append($0) }
    #expect(Array(pieces.joined()) == whole.html)
    #expect(diagramData == whole.diagramData)
    #expect(summary == whole.summary)
    if trace == "counting" {
      #expect(summary.eventCount == 4_000)
      #expect(summary.snapshotCount > 30)
      // About 300 kB of events in pieces of 4 KiB.
      #expect(pieces.count > 60)
      let data = try pageData(whole.html)
      let reactor = try #require(data["reactors"]?.arrayValue?.first)
      let snapshots = try #require(reactor["snapshots"]?.arrayValue)
      #expect(snapshots.count == summary.snapshotCount)
      // Each snapshot is the state after its mutation: its count is the mutation's index.
      for snapshot in snapshots {
        let pair = try #require(snapshot.arrayValue)
        #expect(pair.last?["count"] == pair.first)
      }
    }
  }

  @Test func streamsPastTheMemoryLimitComeBackWholeAndInOrder() throws {
    let store = SpillStore()
    let streams = (0..<5).map { _ in store.makeStream() }
    var expected = [[UInt8]](repeating: [], count: streams.count)
    // 6 MiB in pieces of up to 64 KiB, spread unevenly over the streams.
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
      seed ^= seed << 13
      seed ^= seed >> 7
      seed ^= seed << 17
      return seed
    }
    var total = 0
    while total < 6 << 20 {
      let stream = Int(next() % 7) % streams.count
      let count = Int(next() % 65_536)
      let piece = (0..<count).map { UInt8(truncatingIfNeeded: $0 &+ total &+ stream) }
      store.append(piece, to: streams[stream])
      expected[stream].append(contentsOf: piece)
      total += count
    }
    for (stream, bytes) in zip(streams, expected) {
      for _ in 0..<2 {
        var read: [UInt8] = []
        #expect(store.read(stream) { read.append(contentsOf: $0) })
        #expect(read == bytes)
      }
    }
    #expect(!store.isBroken)
  }
}
