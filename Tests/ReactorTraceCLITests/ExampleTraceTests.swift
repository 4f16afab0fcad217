import Foundation
import Testing

/// The examples' traces in `Traces/`: each is what `reactor-trace record` makes of the script
/// beside it, today.
///
/// Set `REACTOR_TRACE_RECORD=1` to re-record them on purpose.
@Suite("The example traces in Traces/")
struct ExampleTraceTests {
  /// The scripts, `Traces/NAME.actions.jsonl`, relative to the repository.
  static var scripts: [String] {
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/Traces")) ?? []
    return names.filter { $0.hasSuffix(".actions.jsonl") }.sorted().map { "Traces/" + $0 }
  }

  private static func tracePath(for script: String) -> String {
    String(script.dropLast(".actions.jsonl".count)) + ".trace.jsonl"
  }

  @Test func everyExampleReactorHasAScriptedTrace() {
    #expect(
      Self.scripts == [
        "Traces/counter.actions.jsonl", "Traces/github-search.actions.jsonl",
        "Traces/profile.actions.jsonl", "Traces/tasklist.actions.jsonl",
      ])
  }

  @Test(arguments: scripts)
  func theCommittedTraceIsWhatItsScriptRecordsToday(script: String) throws {
    let scratch = try ScratchDirectory()
    let fresh = scratch.file("fresh.trace.jsonl")
    let result = try runReactorTrace(["record", "--actions", script, "-o", fresh])
    #expect(result.exitCode == 0, "\(result.standardError)")
    let committed = repositoryRoot + "/" + Self.tracePath(for: script)
    let recorded = try Data(contentsOf: URL(fileURLWithPath: fresh))
    if ProcessInfo.processInfo.environment["REACTOR_TRACE_RECORD"] == "1" {
      try recorded.write(to: URL(fileURLWithPath: committed), options: .atomic)
      Issue.record("Recorded \(committed); run the tests again without REACTOR_TRACE_RECORD")
      return
    }
    let expected = try? Data(contentsOf: URL(fileURLWithPath: committed))
    #expect(
      expected == recorded,
      """
      \(Self.tracePath(for: script)) is out of date with \(script) and today's reactor; \
      re-record with REACTOR_TRACE_RECORD=1 swift test --filter ExampleTraceTests
      """)
  }

  @Test(arguments: scripts)
  func theCommittedTraceReplaysInReduceAndMutateMode(script: String) throws {
    for mode in ["reduce", "mutate"] {
      let result = try runReactorTrace(["replay", Self.tracePath(for: script), "--mode", mode])
      #expect(result.exitCode == 0, "\(mode): \(result.standardOutput)\(result.standardError)")
      #expect(result.standardOutput.hasPrefix("match: "))
    }
  }

  @Test func mutateReplayHandsTheScriptedEventsToTheFakesAgain() throws {
    let scratch = try ScratchDirectory()
    let lines = try String(
      contentsOfFile: repositoryRoot + "/Traces/tasklist.trace.jsonl", encoding: .utf8
    )
    .split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      lines[0].contains(
        #""script.events":"[{\"event\":{\"create\":{\"title\":\"Reply to review\"}},\"t\":900}"#))
    // Another title for the task created on another screen: only the header changes, so the
    // trace stays consistent, but the fakes now publish a different task.
    let edited = scratch.file("edited.trace.jsonl")
    try
      ([lines[0].replacingOccurrences(of: "Reply to review", with: "Something else")]
      + lines.dropFirst().map(String.init))
      .joined(separator: "\n").write(toFile: edited, atomically: true, encoding: .utf8)

    #expect(try runReactorTrace(["replay", edited, "--mode", "reduce"]).exitCode == 0)
    let mutate = try runReactorTrace(["replay", edited, "--mode", "mutate"])
    #expect(mutate.exitCode == 1)
    #expect(mutate.standardOutput.contains("insertTask"))
    #expect(mutate.standardOutput.contains("stream taskService"))
  }

  @Test func aScriptHeaderNamesTheReactorAndItsMetadata() throws {
    let scratch = try ScratchDirectory()
    let script = scratch.file("script.jsonl")
    try """
    {"reactor": "ReactorExamples.CounterReactor", "meta": {"limit": "0", "owner": "me"}}
    {"t": 0, "action": "increase"}
    """.write(toFile: script, atomically: true, encoding: .utf8)
    let result = try runReactorTrace([
      "record", "--actions", script, "--meta", "owner=you", "-o", scratch.file("t.jsonl"),
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    // The shipped binary binds the example's text view and prints its final screen.
    #expect(result.standardOutput.hasSuffix("screen: [-] 0 [+] alert: Limit reached\n"))
    let trace = try String(contentsOfFile: scratch.file("t.jsonl"), encoding: .utf8)
    #expect(trace.contains(#""metadata":{"limit":"0","owner":"you"}"#))
    #expect(trace.contains(#""label":"setAlert(\"Limit reached\")""#))
    // The recording ends when nothing is waiting on the clock any more, not after --settle.
    #expect(trace.contains(#"{"seq":3,"t":0,"kind":"end""#))
  }
}
