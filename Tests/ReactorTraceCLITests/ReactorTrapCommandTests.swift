import Foundation
import ReactorTracing
import Testing

/// Commands that run the user's reactor, on `ReactorExamples.ItemListReactor`: a list of
/// sections of cells whose actions name a cell by `IndexPath` and trap on one that names no
/// cell, as the ReactorKit code it is modelled on does.
@Suite("reactor code that traps, end to end")
struct ReactorTrapCommandTests {
  /// Loads, gets an item from another screen (a scripted store event) in the empty second
  /// section, toggles it and deletes it.
  private let listScript = """
    {"reactor": "ReactorExamples.ItemListReactor"}
    {"t": 0, "action": "load"}
    {"t": 200, "event": {"added": {"_0": {"id": 7, "title": "From the edit screen", "isChecked": false}, "section": 1}}}
    {"t": 300, "action": {"toggle": {"_0": {"indexes": [1, 0]}}}}
    {"t": 400, "action": {"delete": {"_0": {"indexes": [1, 0]}}}}

    """

  private let alphabet = """
    {"reactor": "ReactorExamples.ItemListReactor"}
    {"t": 0, "action": "load"}
    {"t": 0, "action": {"delete": {"_0": {"indexes": [1, 0]}}}}

    """

  private func write(_ text: String, to path: String) throws -> String {
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// A trace of the list script whose store event came from another screen: the header
  /// does not keep it (`metadata` removed), so a replay does not hand it over again.
  private func traceWithAnotherScreensEvent(in scratch: borrowing ScratchDirectory) throws
    -> String
  {
    let recorded = scratch.file("list.trace.jsonl")
    let record = try runReactorTrace([
      "record", "--actions", write(listScript, to: scratch.file("list.jsonl")), "-o", recorded,
    ])
    #expect(record.exitCode == 0)
    var lines = try String(contentsOfFile: recorded, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var header = try #require(
      JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    #expect(header.removeValue(forKey: "metadata") != nil)
    lines[0] = String(
      decoding: try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]),
      as: UTF8.self)
    let path = scratch.file("other-screen.trace.jsonl")
    try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func mutateReplayStopsAtTheMissingStreamMutationInsteadOfTrapping() throws {
    let scratch = try ScratchDirectory()
    let trace = try traceWithAnotherScreensEvent(in: scratch)
    let result = try runReactorTrace(["replay", "--mode", "mutate", trace])
    #expect(result.terminationReason == .exit)
    #expect(result.exitCode == 1)
    #expect(
      result.standardOutput.hasPrefix(
        "divergence (mutate replay): event 5 (line 6): mutation append("))
    #expect(result.standardOutput.contains("the replay produced no mutation here"))
    #expect(!result.standardError.contains("Fatal error"))
  }

  /// The list script's trace with one line's text replaced.
  private func listTrace(
    in scratch: borrowing ScratchDirectory, replacing old: String, with new: String
  ) throws -> String {
    let recorded = scratch.file("list.trace.jsonl")
    let record = try runReactorTrace([
      "record", "--actions", write(listScript, to: scratch.file("list.jsonl")), "-o", recorded,
    ])
    #expect(record.exitCode == 0)
    let text = try String(contentsOfFile: recorded, encoding: .utf8)
    #expect(text.contains(old))
    let path = scratch.file("edited.trace.jsonl")
    try text.replacingOccurrences(of: old, with: new)
      .write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func recordedEffectsReplayStopsAtADivergenceBeforeTheActionThatWouldTrap() throws {
    let scratch = try ScratchDirectory()
    // The store's item, delivered from the recording, goes to the first section: the toggle
    // of the second section's item that follows would index an empty array.
    let trace = try listTrace(
      in: scratch, replacing: #""section":1}}"#, with: #""section":0}}"#)
    let result = try runReactorTrace(["replay", "--mode", "mutate", "--effects", "recorded", trace])
    #expect(result.terminationReason == .exit)
    #expect(result.exitCode == 1)
    #expect(
      result.standardOutput.hasPrefix(
        "divergence (mutate, effects recorded replay): event 5 (line 6): mutation append("))
    #expect(!result.standardError.contains("Fatal error"))
  }

  @Test func recordedEffectsReplayNamesTheActionThatTrappedTheReactor() throws {
    let scratch = try ScratchDirectory()
    let trace = try listTrace(
      in: scratch,
      replacing: #""label":"toggle([1, 0])","value":{"toggle":{"_0":{"indexes":[1,0]}}},"source""#,
      with: #""label":"toggle([1, 5])","value":{"toggle":{"_0":{"indexes":[1,5]}}},"source""#)
    let result = try runReactorTrace(["replay", "--mode", "mutate", "--effects", "recorded", trace])
    #expect(result.terminationReason == .exit)
    #expect(result.exitCode == 1)
    #expect(
      result.standardOutput == """
        divergence (mutate, effects recorded replay): the reactor trapped (Swift's message is \
        on standard error) at event 6, the action toggle([1, 5]), or in what it started

        """)
    #expect(result.standardError.contains("Fatal error: Index out of range"))
  }

  /// The list script as a flight recorder's window that starts at the toggle: the item
  /// another screen added is in its snapshot, which a fresh list does not have.
  private func windowFromTheToggle(in scratch: borrowing ScratchDirectory) throws -> String {
    let recorded = scratch.file("list.trace.jsonl")
    let record = try runReactorTrace([
      "record", "--actions", write(listScript, to: scratch.file("list.jsonl")), "-o", recorded,
    ])
    #expect(record.exitCode == 0)
    let trace = try Trace(contentsOf: recorded)
    let toggle = try #require(
      trace.events.first {
        if case .action(let action) = $0.kind { action.label.hasPrefix("toggle(") } else { false }
      })
    let reader = try TraceReader(path: recorded)
    while let event = try reader.next(), event.sequence < toggle.sequence - 1 {}
    var header = trace.header
    header.initialState = reader.currentState
    header.initialStateHash = reader.currentState.hash
    header.window = TraceHeader.Window(
      firstSequence: toggle.sequence, droppedEvents: toggle.sequence - 1)
    let window = scratch.file("window.trace.jsonl")
    try Trace(header: header, events: trace.events.filter { $0.sequence >= toggle.sequence })
      .write(to: window)
    return window
  }

  @Test func mutateReplayOfAWindowIsRefusedWithOneLineOrStartsFromItsSnapshot() throws {
    let scratch = try ScratchDirectory()
    let window = try windowFromTheToggle(in: scratch)
    // Run mode would start a fresh list and send it the toggle of an item it lacks.
    let refused = try runReactorTrace(["replay", "--mode", "mutate", window])
    #expect(refused.terminationReason == .exit)
    #expect(refused.exitCode == 2)
    #expect(
      refused.standardError
        == "reactor-trace: the trace is a flight-recorder window that starts from a snapshot "
        + "at event 6 (5 earlier events dropped); mutate replay re-sends actions from the "
        + "reactor's initial state, so it needs the recording's start: use --effects "
        + "recorded, --mode reduce or --mode structural, which start from the snapshot\n")
    #expect(!refused.standardError.contains("Fatal error"))

    let fromSnapshot = try runReactorTrace([
      "replay", "--mode", "mutate", "--effects", "recorded", window,
    ])
    #expect(fromSnapshot.exitCode == 0, "\(fromSnapshot.standardError)")
  }

  @Test func exploreReportsTheShortestScriptThatTrapsTheReactor() throws {
    let scratch = try ScratchDirectory()
    let result = try runReactorTrace([
      "explore", "ItemListReactor", "--actions", write(alphabet, to: scratch.file("a.jsonl")),
      "--max-depth", "4",
    ])
    #expect(result.terminationReason == .exit)
    #expect(result.exitCode == 1)
    #expect(
      result.standardOutput == """
        the reactor trapped (Swift's message is on standard error) after 1 action: \
        delete([1, 0])
          {"reactor":"ReactorExamples.ItemListReactor"}
          {"action":{"delete":{"_0":{"indexes":[1,0]}}},"t":0}

        """)
    #expect(result.standardError.contains("Fatal error: Index out of range"))
  }

  @Test func coverageReportsTheScriptThatTrapsTheReactor() throws {
    let scratch = try ScratchDirectory()
    let trace = scratch.file("list.trace.jsonl")
    _ = try runReactorTrace([
      "record", "--actions", write(listScript, to: scratch.file("list.jsonl")), "-o", trace,
    ])
    let result = try runReactorTrace(["coverage", trace, "--max-depth", "3"])
    #expect(result.terminationReason == .exit)
    #expect(result.exitCode == 1)
    #expect(
      result.standardOutput.hasPrefix(
        "the reactor trapped (Swift's message is on standard error) after 1 action: "))
    #expect(result.standardError.contains("Fatal error: Index out of range"))
  }

  @Test func aTrapReportKeepsTheLinesPrintedBeforeItThroughAPipe() throws {
    let scratch = try ScratchDirectory()
    let trace = try traceWithAnotherScreensEvent(in: scratch)
    // Exploring the recording's types prints a first line, then explores the list with the
    // actions it was sent, one of which traps on the empty list.
    let result = try runReactorTrace(["explore", trace, "--max-depth", "3"])
    #expect(result.terminationReason == .exit)
    #expect(
      result.standardOutput.hasPrefix("\(trace): 1 reactor of 1 type, each registered type "),
      "\(result.standardOutput)")
    #expect(
      result.standardOutput.contains(
        "the reactor trapped (Swift's message is on standard error) after 1 action: "))
  }

  @Test func recordNamesTheScriptStepThatTrappedTheReactor() throws {
    let scratch = try ScratchDirectory()
    let script = """
      {"reactor": "ReactorExamples.ItemListReactor"}
      {"t": 0, "action": "load"}
      {"t": 50, "action": {"delete": {"_0": {"indexes": [1, 0]}}}}

      """
    let output = scratch.file("crash.trace.jsonl")
    let result = try runReactorTrace([
      "record", "--actions", write(script, to: scratch.file("crash.jsonl")), "-o", output,
    ])
    #expect(result.terminationReason == .exit)
    #expect(result.exitCode == 1)
    #expect(
      result.standardOutput == """
        the reactor trapped (Swift's message is on standard error) at step 2 of 2 of the \
        script, t=50 ms: the action delete([1, 0]), or in what the steps before it started

        """)
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func rerecordNamesTheStepWhenTheEventFromAnotherScreenIsMissing() throws {
    let scratch = try ScratchDirectory()
    let trace = try traceWithAnotherScreensEvent(in: scratch)
    let result = try runReactorTrace(["rerecord", trace, "-o", scratch.file("new.trace.jsonl")])
    #expect(result.terminationReason == .exit)
    #expect(result.exitCode == 1)
    #expect(
      result.standardOutput.contains(
        "at step 2 of 3 of the script, t=300 ms: the action toggle([1, 0])"))
    #expect(!FileManager.default.fileExists(atPath: scratch.file("new.trace.jsonl")))
  }
}
