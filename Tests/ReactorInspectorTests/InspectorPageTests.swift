import Foundation
import ReactorDiagrams
import ReactorInspector
import ReactorTracing
import Testing

private let tracesDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Traces").path

/// A copy of an example trace with some text replaced, in a temporary file.
private func editedTrace(
  _ name: String, replacing target: String, with replacement: String, dropping tail: Int = 0
) throws -> String {
  var text = try String(contentsOfFile: tracesDirectory + "/" + name, encoding: .utf8)
  text = text.replacingOccurrences(of: target, with: replacement)
  if tail > 0 { text = String(text.dropLast(tail)) }
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("inspector-\(UUID().uuidString).trace.jsonl").path
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

/// The page's text and its embedded data, parsed.
private func pageParts(_ page: InspectorPage) throws -> (html: String, data: JSONValue) {
  let html = String(decoding: page.html, as: UTF8.self)
  let opening = #"<script type="application/json" id="trace-data">"#
  let start = try #require(html.range(of: opening)).upperBound
  let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
  return (html, try JSONValue(parsing: String(html[start..<end])))
}

/// A trace of `count` mutations, each setting `count` in a state that also holds `padding`,
/// in a temporary file; the header is the Counter trace's with another initial state.
func countingTrace(mutations count: Int, padding: String) throws -> String {
  let counter = try String(
    contentsOfFile: tracesDirectory + "/counter.trace.jsonl", encoding: .utf8)
  var header = try #require(
    try JSONValue(parsing: String(counter.prefix { $0 != "\n" })).objectValue)
  var state = JSONObject()
  state["count"] = .int(0)
  state["padding"] = .string(padding)
  header["initialState"] = .object(state)
  header["initialStateHash"] = .string(JSONValue.object(state).canonicalHash.description)
  var lines = [JSONValue.object(header).serializedString]
  for id in 1...count {
    state["count"] = .int(Int64(id))
    let diff: JSONValue = [["p": ["count"], "v": .int(Int64(id))]]
    let hash = JSONValue.object(state).canonicalHash.description
    lines.append(
      #"{"seq":\#(2 * id - 1),"t":\#(id * 1000),"kind":"action","id":\#(id),"label":"tick","source":"sent"}"#
    )
    lines.append(
      #"{"seq":\#(2 * id),"t":\#(id * 1000),"kind":"mutation","id":\#(id),"label":"set(\#(id))","cause":{"action":\#(id)},"diff":\#(diff.serializedString),"hash":"\#(hash)"}"#
    )
  }
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("inspector-\(UUID().uuidString).trace.jsonl").path
  try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

@Suite("Inspector page")
struct InspectorPageTests {
  @Test func smallStatesAreSnapshottedEvery64Mutations() throws {
    let path = try countingTrace(mutations: 1_000, padding: "")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let page = try InspectorPage(tracePath: path)
    #expect(page.eventCount == 2_000)
    #expect(page.snapshotCount == 1 + 1_000 / 64)
    let (_, data) = try pageParts(page)
    let reactor = try #require(data["reactors"]?.arrayValue?.first)
    let snapshots = try #require(reactor["snapshots"]?.arrayValue)
    #expect(snapshots.map { $0.arrayValue?.first?.intValue } == (0...15).map { $0 * 64 })
    #expect(snapshots.last?.arrayValue?.last?["count"] == .int(960))
  }

  @Test func largeStatesAreSnapshottedSoThatSnapshotsNeverOutweighTheEvents() throws {
    let path = try countingTrace(mutations: 500, padding: String(repeating: "x", count: 15_000))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let traceSize = try #require(
      FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    let page = try InspectorPage(tracePath: path)
    // 15 kB states, ~170 bytes of events per mutation: a snapshot every 64 mutations would
    // outweigh the events between two; one waits until the events since the last weigh as
    // much as it.
    #expect(page.snapshotCount > 1)
    #expect(page.snapshotCount < 1 + 500 / 64)
    #expect(page.html.count < 2 * traceSize)
  }

  @Test func pageIsOneFileThatLoadsNothingFromOutside() throws {
    let page = try InspectorPage(tracePath: tracesDirectory + "/github-search.trace.jsonl")
    let (html, data) = try pageParts(page)
    #expect(page.eventCount == 48)
    #expect(page.traceEventCount == 48)
    #expect(page.diagramNote == nil)
    for outside in ["src=", "href=\"http", "@import", "url(", "<link"] {
      #expect(!html.contains(outside), "\(outside)")
    }
    #expect(data["reactor"]?.stringValue == "ReactorExamples.GitHubSearchReactor")
    #expect(data["events"]?.arrayValue?.count == 48)
    #expect(data["diagrams"]?.arrayValue?.first?["svg"]?.stringValue?.hasPrefix("<svg") == true)
    #expect(data["reactors"]?.arrayValue?.first?["nodes"]?.arrayValue?.count == 19)
  }

  @Test(arguments: [nil, StateAbstraction.wholeState, StateAbstraction(keys: ["query"])])
  func diagramIsTheOneRenderTransitionsDrawsWithTheSameAbstraction(
    _ chosen: StateAbstraction?
  ) throws {
    let path = tracesDirectory + "/github-search.trace.jsonl"
    let page = try InspectorPage(tracePath: path, options: InspectorOptions(abstraction: chosen))
    let (_, data) = try pageParts(page)
    let abstraction = try chosen ?? StateAbstraction.inferred(fromTracesAt: [path])
    let graph = try TransitionGraph(tracesAt: [path], abstraction: abstraction)
    let svg = String(
      decoding: try GraphvizRenderer().render(graph.dotGraph(), engine: .dot, format: .svg),
      as: UTF8.self)
    #expect(
      data["diagrams"]?.arrayValue?.first?["svg"]?.stringValue
        == String(svg[try #require(svg.range(of: "<svg")).lowerBound...]))
    #expect(
      data["diagrams"]?.arrayValue?.first?["nodeNames"]?.arrayValue?.count == graph.states.count)
  }

  @Test func byDefaultEachStepIsOnTheInferredNodeOfItsState() throws {
    let path = tracesDirectory + "/github-search.trace.jsonl"
    let page = try InspectorPage(tracePath: path)
    let (_, data) = try pageParts(page)
    let graph = try TransitionGraph(
      tracesAt: [path], abstraction: try StateAbstraction.inferred(fromTracesAt: [path]))
    #expect(graph.states.count == 6)
    let nodes = try #require(data["reactors"]?.arrayValue?.first?["nodes"]?.arrayValue).map {
      try #require($0.intValue)
    }
    #expect(nodes.count == 19)
    // The initial state has no query and no repos; the last has both.
    #expect(graph.states[nodes[0]].text.contains("repos=empty"))
    #expect(graph.states[try #require(nodes.last)].text.contains("repos=non-empty"))
  }

  @Test func textFromTheTraceCannotCloseTheScriptElement() throws {
    let hostile = #"</script><script>alert(1)</script><!-- \u2028 \u2029 & ]]>"#
    let path = try editedTrace(
      "counter.trace.jsonl", replacing: #""label":"increase""#, with: #""label":"\#(hostile)""#)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let page = try InspectorPage(tracePath: path)
    let (html, data) = try pageParts(page)
    #expect(html.components(separatedBy: "<script").count == 3)
    #expect(html.components(separatedBy: "</script").count == 3)
    #expect(!html.contains("<!-- "))
    #expect(!html.contains("\u{2028}") && !html.contains("\u{2029}"))
    let label = data["events"]?.arrayValue?.first?.arrayValue?[5].stringValue
    #expect(label == "</script><script>alert(1)</script><!-- \u{2028} \u{2029} & ]]>")
  }

  @Test func anActionFromOutsideTheAppCarriesWhoSentItAndOthersNull() throws {
    // Issue 43: the page marks an action the live page or `reactor-trace send` sent.
    let path = try editedTrace(
      "counter.trace.jsonl", replacing: #""source":"sent"}"#,
      with: #""source":"sent","external":"</script>page"}"#)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (html, data) = try pageParts(InspectorPage(tracePath: path))
    #expect(html.components(separatedBy: "</script").count == 3)
    let kind = try #require(PageEventSlots.kinds.first { $0.letter == "a" })
    let slot = PageEventSlots.common.count + (try #require(kind.slots.firstIndex(of: "external")))
    let actions = try #require(data["events"]?.arrayValue).compactMap(\.arrayValue)
      .filter { $0[2] == .string("a") }
    #expect(actions.count == 4)
    #expect(actions.allSatisfy { $0[slot] == .string("</script>page") })
    let plain = try pageParts(InspectorPage(tracePath: tracesDirectory + "/counter.trace.jsonl"))
    let plainActions = try #require(plain.data["events"]?.arrayValue).compactMap(\.arrayValue)
      .filter { $0[2] == .string("a") }
    #expect(!plainActions.isEmpty && plainActions.allSatisfy { $0[slot] == .null })
  }

  @Test func tooLongATraceIsCutAndThePageSaysSo() throws {
    let page = try InspectorPage(
      tracePath: tracesDirectory + "/counter.trace.jsonl",
      options: InspectorOptions(maximumEvents: 5))
    #expect(page.eventCount == 5)
    #expect(page.traceEventCount == 19)
    let (_, data) = try pageParts(page)
    let notes = data["notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
    #expect(
      notes.contains { $0.contains("19 events, too many to embed") && $0.contains("first 5") })
  }

  @Test func readerWarningsAndEffectsStillRunningAreShown() throws {
    // Cut inside effect 9's end, before the end line: a torn line, effect 9 still running.
    let path = try editedTrace("github-search.trace.jsonl", replacing: "", with: "", dropping: 100)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let page = try InspectorPage(tracePath: path)
    let (_, data) = try pageParts(page)
    let warnings = data["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
    #expect(warnings.contains { $0.contains("incomplete") })
    #expect(warnings.contains { $0.contains("still running") })
  }

  @Test func aWindowedTraceSaysWhatTheWindowDropped() throws {
    let path = tracesDirectory + "/github-search.trace.jsonl"
    let reader = try TraceReader(path: path)
    for _ in 0..<8 { _ = try reader.next() }
    var header = reader.header
    header.window = TraceHeader.Window(firstSequence: 9, droppedEvents: 8)
    header.initialState = reader.currentState
    header.initialStateHash = reader.currentState.hash
    var events: [TraceEvent] = []
    while let event = try reader.next() { events.append(event) }
    let windowed = FileManager.default.temporaryDirectory
      .appendingPathComponent("inspector-\(UUID().uuidString).trace.jsonl").path
    try Trace(header: header, events: events).write(to: windowed)
    defer { try? FileManager.default.removeItem(atPath: windowed) }
    let page = try InspectorPage(tracePath: windowed)
    #expect(page.eventCount == 40)
    let (_, data) = try pageParts(page)
    let warnings = data["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
    #expect(warnings == ["a rolling window dropped the first 8 events; the trace starts at seq 9"])
  }

  @Test func aSessionHasEveryReactorItsEventsAndADiagramPerType() throws {
    let path = tracesDirectory + "/taskapp.session.jsonl"
    let page = try InspectorPage(tracePath: path)
    let (_, data) = try pageParts(page)
    let session = try SessionTrace(contentsOf: path)
    #expect(page.eventCount == session.events.count)
    #expect(data["session"] == .bool(true))
    #expect(data["reactor"]?.stringValue == "TaskApp")
    let reactors = try #require(data["reactors"]?.arrayValue)
    #expect(reactors.map { $0["id"]?.intValue } == session.reactors.map { $0.reactor })
    let types = try #require(data["diagrams"]?.arrayValue).map { $0["type"]?.stringValue }
    var typesInOrder: [String] = []
    for type in session.reactors.map(\.type) where !typesInOrder.contains(type) {
      typesInOrder.append(type)
    }
    #expect(types == typesInOrder)
    let reactorSlot = try #require(PageEventSlots.common.firstIndex(of: "reactor"))
    let events = try #require(data["events"]?.arrayValue)
    #expect(
      events.compactMap { $0.arrayValue?[reactorSlot].intValue }
        == session.events.map { $0.reactor ?? 0 })
    for (reactor, introduction) in zip(reactors, session.reactors) {
      let lane = try #require(session.lane(of: introduction.reactor))
      let mutations = lane.events.filter {
        if case .mutation = $0.kind { true } else { false }
      }
      // One node for the initial state and one after each mutation, each a node of the type's
      // diagram.
      let nodes = try #require(reactor["nodes"]?.arrayValue)
      #expect(nodes.count == mutations.count + 1)
      #expect(nodes.allSatisfy { ($0.intValue ?? -1) >= 0 })
    }
    // The insert in the list names the edit screen's save as its origin.
    let insert = try #require(
      events.first { $0.arrayValue?[0].intValue == 18 }?.arrayValue)
    let fromSlot = PageEventSlots.common.count + 6
    #expect(insert[fromSlot] == .array([.int(2), .int(2), .int(1)]))
  }

  @Test func everyActionAndMutationCarriesItsLabelAsShownWithoutModulePrefixes() throws {
    let path = tracesDirectory + "/taskapp.session.jsonl"
    let (_, data) = try pageParts(InspectorPage(tracePath: path))
    let events = try #require(data["events"]?.arrayValue).compactMap(\.arrayValue)
    let common = PageEventSlots.common.count
    let slots = Dictionary(uniqueKeysWithValues: PageEventSlots.kinds.map { ($0.letter, $0) })
    var shownCount = 0
    for event in events {
      guard let letter = event[2].stringValue, letter == "a" || letter == "m",
        let kind = slots[letter],
        let labelSlot = kind.slots.firstIndex(of: "label"),
        let shownSlot = kind.slots.firstIndex(of: "shown"),
        let label = event[common + labelSlot].stringValue
      else { continue }
      // The label as recorded stays; the one shown is the shared rule's, or null when the
      // same.
      let expected = LabelText.withoutModules(label)
      if expected == label {
        #expect(event[common + shownSlot] == .null, "\(label)")
      } else {
        #expect(event[common + shownSlot].stringValue == expected)
        #expect(!expected.contains("ReactorExamples."))
        shownCount += 1
      }
    }
    // setTasks ×2, setTask ×2, setEditing, insert, edit.
    #expect(shownCount == 7)
  }

  @Test func aChosenAbstractionIsRefusedForASessionOfSeveralTypesAndNothingIsWritten() {
    var written = 0
    #expect(throws: InspectorError.abstractionOfSeveralTypes(3)) {
      try InspectorPage.write(
        tracePath: tracesDirectory + "/taskapp.session.jsonl",
        options: InspectorOptions(abstraction: .wholeState)
      ) { written += $0.count }
    }
    #expect(written == 0)
  }

  @Test func anUnreadableTraceFailsWithTheReadersMessage() {
    #expect(throws: InspectorError.self) {
      try InspectorPage(tracePath: tracesDirectory + "/no-such.trace.jsonl")
    }
  }
}
