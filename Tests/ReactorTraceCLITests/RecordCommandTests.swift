import Foundation
import Testing

@Suite("reactor-trace record, end to end")
struct RecordCommandTests {
  private let counterScript = """
    {"t": 0, "action": {"increase": {}}}
    {"t": 500, "action": {"increase": {}}}
    {"t": 1000, "action": {"increase": {}}}
    {"t": 1500, "action": {"decrease": {}}}

    """

  private func write(_ text: String, to path: String) throws {
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  private func record(_ script: String, in scratch: borrowing ScratchDirectory, to name: String)
    throws -> CommandResult
  {
    let scriptPath = scratch.file("script.jsonl")
    try write(script, to: scriptPath)
    return try runReactorTrace([
      "record", "--reactor", "ReactorExamples.CounterReactor", "--actions", scriptPath,
      "--meta", "limit=2", "-o", scratch.file(name),
    ])
  }

  @Test func theSameScriptGivesAByteIdenticalTraceThatReplays() throws {
    let scratch = try ScratchDirectory()
    let first = try record(counterScript, in: scratch, to: "a.jsonl")
    let second = try record(counterScript, in: scratch, to: "b.jsonl")
    #expect(first.exitCode == 0, "\(first.standardError)")
    #expect(
      first.standardOutput == """
        wrote \(scratch.file("a.jsonl")): 19 events from 4 actions
        screen: [-] 1 [+] alert: Limit reached

        """)
    #expect(second.exitCode == 0)
    let a = try Data(contentsOf: URL(fileURLWithPath: scratch.file("a.jsonl")))
    let b = try Data(contentsOf: URL(fileURLWithPath: scratch.file("b.jsonl")))
    #expect(a == b)
    let text = String(decoding: a, as: UTF8.self)
    #expect(text.contains(#""metadata":{"limit":"2"}"#))
    #expect(
      text.contains(
        #"{"seq":14,"t":1000000000,"kind":"mutation","id":7,"label":"setAlert(\"Limit reached\")""#)
    )

    for mode in ["reduce", "mutate"] {
      let replay = try runReactorTrace(["replay", scratch.file("a.jsonl"), "--mode", mode])
      #expect(replay.exitCode == 0, "\(mode): \(replay.standardOutput)\(replay.standardError)")
    }
  }

  @Test func aBadScriptOrReactorExitsWith2NamingTheProblem() throws {
    let scratch = try ScratchDirectory()
    let cases: [(String, String)] = [
      (
        #"{"t": 0, "action": {"increase": {}}}"# + "\n" + #"{"t": 0 "action": 1}"#,
        ":2: malformed step: column 9"
      ),
      (
        #"{"t": 10, "action": {"increase": {}}}"# + "\n" + #"{"t": 5, "action": {"increase": {}}}"#,
        ":2: malformed step: 't' must not go back in time"
      ),
      (#"{"t": 0, "action": {"jump": {}}}"#, ":1: the action cannot be decoded"),
      (#"{"action": {"increase": {}}}"#, ":1: malformed step: missing field 't' (milliseconds)"),
      (
        #"{"t": "soon", "action": "increase"}"#,
        ":1: malformed step: 't' must be a number of milliseconds from 0 to 9223372036854"
      ),
      (#"{"t": 0}"#, ":1: malformed step: a step needs an 'action' or an 'event'"),
      (#"{"reactor": 3}"#, ":1: malformed step: 'reactor' must be a string"),
      (
        #"{"t": 0, "event": {"create": {"title": "x"}}}"#,
        ":1: ReactorExamples.CounterReactor is registered without an event type"
      ),
    ]
    for (script, message) in cases {
      let result = try record(script, in: scratch, to: "out.jsonl")
      #expect(result.exitCode == 2, "\(script)")
      #expect(result.standardError.contains(message), "\(result.standardError)")
      #expect(result.standardError.split(separator: "\n").count == 1)
    }
    let unknown = try runReactorTrace([
      "record", "--reactor", "Nope", "--actions", scratch.file("script.jsonl"),
      "-o", scratch.file("out.jsonl"),
    ])
    #expect(unknown.exitCode == 2)
    #expect(unknown.standardError.hasPrefix("reactor-trace: unknown reactor 'Nope'"))
    #expect(!FileManager.default.fileExists(atPath: scratch.file("out.jsonl")))
  }
}

@Suite("reactor names on the command line")
struct ReactorNameTests {
  @Test func aShortNamePicksOutTheRegisteredReactorAndRecordsItsFullName() throws {
    let scratch = try ScratchDirectory()
    let script = scratch.file("script.jsonl")
    try #"{"t": 0, "action": "increase"}"#.write(toFile: script, atomically: true, encoding: .utf8)
    for (name, output) in [("counter", "a.jsonl"), ("CounterReactor", "b.jsonl")] {
      let result = try runReactorTrace([
        "record", "--reactor", name, "--actions", script, "-o", scratch.file(output),
      ])
      #expect(result.exitCode == 0, "\(name): \(result.standardError)")
      let text = try String(contentsOfFile: scratch.file(output), encoding: .utf8)
      #expect(text.contains(#""reactor":"ReactorExamples.CounterReactor""#))
    }
  }

  @Test func aNameThatMatchesNoRegisteredReactorListsTheRegisteredOnes() throws {
    let scratch = try ScratchDirectory()
    let script = scratch.file("script.jsonl")
    try #"{"t": 0, "action": "increase"}"#.write(toFile: script, atomically: true, encoding: .utf8)
    let result = try runReactorTrace([
      "record", "--reactor", "reactor", "--actions", script, "-o", scratch.file("c.jsonl"),
    ])
    #expect(result.exitCode == 2)
    #expect(
      result.standardError.hasPrefix(
        "reactor-trace: unknown reactor 'reactor'; registered: ReactorExamples.BookmarkReactor, ReactorExamples.CounterReactor, "
      ))
  }
}
