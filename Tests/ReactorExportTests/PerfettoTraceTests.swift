import Foundation
import ReactorExport
import ReactorTracing
import Testing

/// The committed example traces, found from this file's path.
private let tracesDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Traces").path

private let exampleTraces: [String] = {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: tracesDirectory)) ?? []
  return names.filter { $0.hasSuffix(".trace.jsonl") }.sorted()
}()

@Suite("Perfetto export")
struct PerfettoTraceTests {
  /// The export of a trace, parsed back from its bytes.
  private func export(_ name: String) throws -> (document: JSONValue, trace: Trace) {
    let path = tracesDirectory + "/" + name
    let export = try PerfettoTrace(reader: TraceReader(path: path))
    let document = try JSONValue(parsing: export.serialized)
    return (document, try Trace(contentsOf: path))
  }

  @Test func everyExampleTraceIsFound() {
    #expect(exampleTraces.count >= 4)
  }

  @Test(arguments: exampleTraces)
  func exportFollowsTheTraceEventFormatsRules(_ name: String) throws {
    let (document, _) = try export(name)
    try checkRules(document)
  }

  @Test func aWindowedTraceWhoseCausesCameBeforeTheWindowFollowsTheRules() throws {
    // The GitHubSearch trace from seq 9 on, as a rolling window would keep it: the actions
    // and effects behind its first mutations are not in the file.
    let path = tracesDirectory + "/github-search.trace.jsonl"
    let reader = try TraceReader(path: path)
    var dropped: [TraceEvent] = []
    while dropped.count < 8, let event = try reader.next() { dropped.append(event) }
    var events: [TraceEvent] = []
    while let event = try reader.next() { events.append(event) }
    var header = reader.header
    header.window = TraceHeader.Window(firstSequence: 9, droppedEvents: 8)
    // The state before seq 9: after the 8 dropped events.
    let replay = try TraceReader(path: path)
    for _ in 0..<8 { _ = try replay.next() }
    header.initialState = replay.currentState
    header.initialStateHash = replay.currentState.hash
    let windowed = FileManager.default.temporaryDirectory
      .appendingPathComponent("perfetto-\(UUID().uuidString).trace.jsonl").path
    try Trace(header: header, events: events).write(to: windowed)
    defer { try? FileManager.default.removeItem(atPath: windowed) }
    let export = try PerfettoTrace(reader: TraceReader(path: windowed))
    try checkRules(try JSONValue(parsing: export.serialized))
  }

  /// Checks the rules of the trace event format that viewers rely on.
  private func checkRules(_ document: JSONValue) throws {
    // Without a display unit viewers show milliseconds; `ns` made the Chrome trace viewer
    // show `300,000,000 ns`, and old Perfetto importers read the timestamps as nanoseconds.
    #expect(document["displayTimeUnit"] == nil)
    let events = try #require(document["traceEvents"]?.arrayValue)
    var lastTime: [Int64: Double] = [:]
    var slices: [Int64: [(start: Double, end: Double)]] = [:]
    var flowStarts: [Int64: Int64] = [:]
    var flowEnds: [Int64: Int64] = [:]
    // What is open on each track: the last slice or instant read there, and when it ends.
    var open: [Int64: (start: Double, end: Double)] = [:]
    var counterTimes: [String: Double] = [:]
    for event in events {
      let phase = try #require(event["ph"]?.stringValue)
      #expect(event["pid"]?.intValue == 1)
      #expect(["M", "i", "X", "s", "f", "C"].contains(phase), "unexpected phase \(phase)")
      guard phase != "M" else { continue }
      if phase == "C" {
        // A counter: numeric fields, each field's points in time order.
        let members = try #require(event["args"]?.objectValue?.members)
        #expect(!members.isEmpty)
        let time = try #require(Self.number(event["ts"]))
        for field in members {
          #expect(Self.number(field.value) != nil)
          #expect(time >= counterTimes[field.key, default: 0], "counter \(field.key) goes back")
          counterTimes[field.key] = time
        }
        continue
      }
      let track = Int64(try #require(event["tid"]?.intValue))
      let time = try #require(Self.number(event["ts"]))
      #expect(time >= 0)
      #expect(time >= lastTime[track, default: 0], "time goes back on track \(track)")
      lastTime[track] = time
      #expect(event["name"]?.stringValue != nil)
      switch phase {
      case "X":
        let duration = try #require(Self.number(event["dur"]))
        #expect(duration >= 0)
        slices[track, default: []].append((time, time + duration))
        open[track] = (time, time + duration)
        #expect(event["args"]?["outcome"]?.stringValue != nil)
      case "i":
        #expect(event["s"]?.stringValue == "t")
        open[track] = (time, time)
      case "s", "f":
        // Each end binds to the slice open on its track at its time, read before it.
        let enclosing = try #require(open[track], "flow with nothing to bind to on \(track)")
        #expect(enclosing.start <= time && time <= enclosing.end, "flow outside its slice")
        let id = Int64(try #require(event["id"]?.intValue))
        if phase == "s" {
          #expect(flowStarts.updateValue(track, forKey: id) == nil, "flow \(id) starts twice")
        } else {
          #expect(event["bp"]?.stringValue == "e")
          #expect(flowStarts[id] != nil, "flow \(id) ends before it starts")
          #expect(flowEnds.updateValue(track, forKey: id) == nil, "flow \(id) ends twice")
        }
      default: break
      }
    }
    #expect(Set(flowStarts.keys) == Set(flowEnds.keys), "a flow without both ends")
    for (track, trackSlices) in slices {
      for (before, after) in zip(trackSlices, trackSlices.dropFirst()) {
        #expect(after.start > before.end, "slices overlap or touch on track \(track)")
      }
    }
  }

  @Test(arguments: exampleTraces)
  func everyEventOfTheTraceAppearsOnce(_ name: String) throws {
    let (document, trace) = try export(name)
    let events = try #require(document["traceEvents"]?.arrayValue)
    var counts: [String: Int] = [:]
    for event in events {
      counts[event["cat"]?.stringValue ?? event["ph"]?.stringValue ?? "?", default: 0] += 1
    }
    var expected: [String: Int] = [:]
    for event in trace.events {
      switch event.kind {
      case .action: expected["action", default: 0] += 1
      case .effectStarted: expected["effect", default: 0] += 1
      case .mutation: expected["mutation", default: 0] += 1
      case .streamEnded: expected["stream", default: 0] += 1
      case .end: expected["recording", default: 0] += 1
      case .gap: expected["gap", default: 0] += 1
      case .jump: expected["jump", default: 0] += 1
      case .effectEnded: break
      }
    }
    for (category, count) in expected {
      #expect(counts[category] == count, "\(category)")
    }
  }

  @Test func effectsThatOverlapGetTracksOfTheirOwnAndCausesBecomeFlows() throws {
    let (document, trace) = try export("github-search.trace.jsonl")
    let events = try #require(document["traceEvents"]?.arrayValue)
    let effects = events.filter { $0["ph"]?.stringValue == "X" }
    let starts = trace.events.filter {
      if case .effectStarted = $0.kind { true } else { false }
    }
    #expect(effects.count == starts.count)
    #expect(Set(effects.compactMap { $0["tid"]?.intValue }).count >= 2)
    let outcomes = Set(effects.compactMap { $0["args"]?["outcome"]?.stringValue })
    #expect(outcomes.isSuperset(of: ["finished", "cancelled"]))
    let mutations = trace.events.filter {
      if case .mutation(let mutation) = $0.kind, mutation.cause.action != nil {
        true
      } else {
        false
      }
    }
    // One arrow per effect (from its action) and one per mutation with an action behind it.
    let flows = events.filter { $0["ph"]?.stringValue == "s" }
    #expect(flows.count == effects.count + mutations.count)
  }

  @Test func numericAndBooleanFieldsEndOnTheirFinalValues() throws {
    let (document, trace) = try export("counter.trace.jsonl")
    let events = try #require(document["traceEvents"]?.arrayValue)
    var last: [String: Double] = [:]
    var points = 0
    for event in events where event["ph"]?.stringValue == "C" {
      for (name, value) in event["args"]?.objectValue?.members ?? [] {
        last[name] = Self.number(value)
        points += 1
      }
    }
    // The initial state's three numbers, then one point per change.
    #expect(Set(last.keys) == ["alertMessage.valueUpdatedCount", "isLoading", "value"])
    #expect(points > 3)
    let reader = try TraceReader(path: tracesDirectory + "/counter.trace.jsonl")
    while try reader.next() != nil {}
    guard case .json(let final) = reader.currentState else {
      Issue.record("the counter's state is JSON")
      return
    }
    #expect(last["value"] == final["value"]?.intValue.map(Double.init))
    #expect(last["isLoading"] == ((final["isLoading"]?.boolValue ?? true) ? 1 : 0))
    #expect(trace.events.isEmpty == false)
  }

  @Test func everyCounterPointHoldsEveryFieldAndComesFromAChange() throws {
    let (document, _) = try export("counter.trace.jsonl")
    let events = try #require(document["traceEvents"]?.arrayValue)
    let points = events.filter { $0["ph"]?.stringValue == "C" }
      .compactMap { $0["args"]?.objectValue?.members }
    // The Chrome trace viewer takes a counter's fields from its first point and reads one a
    // later point leaves out as 0: a point per changed field showed only the first field,
    // dropping to 0 at every other change.
    let fields = ["alertMessage.valueUpdatedCount", "isLoading", "value"]
    #expect(points.count > 3)
    for point in points {
      #expect(point.map(\.0).sorted() == fields)
    }
    // A point at each change (the recording ends at its last change, so no point repeats
    // the last values).
    for (before, after) in zip(points, points.dropFirst()) {
      #expect(before.map(\.1) != after.map(\.1), "a point with nothing changed")
    }
  }

  @Test func statesChangesAreArgumentsOfTheirMutation() throws {
    let (document, _) = try export("counter.trace.jsonl")
    let events = try #require(document["traceEvents"]?.arrayValue)
    let first = try #require(events.first { $0["cat"]?.stringValue == "mutation" })
    #expect(first["name"]?.stringValue == "setLoading(true)")
    #expect(first["args"]?["changes"] == [["p": ["isLoading"], "v": true]])
    #expect(first["args"]?["cause"]?.stringValue == "effect 1 of action 1")
    let process = events.first { $0["name"]?.stringValue == "process_name" }
    #expect(process?["args"]?["name"]?.stringValue == "CounterReactor")
    #expect(document["metadata"]?["reactor"]?.stringValue == "ReactorExamples.CounterReactor")
  }

  private static func number(_ value: JSONValue?) -> Double? {
    switch value {
    case .int(let int): Double(int)
    case .double(let double): double
    default: nil
    }
  }
}
