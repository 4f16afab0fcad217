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

  @Test func anEventBeforeTheFirstActionReachesAReactorWithoutAViewAndReplays() throws {
    // The like button has no registered view: its pipeline used to start at its first
    // action, so the like made on another screen at 0 ms was lost by `record`.
    let scratch = try ScratchDirectory()
    let script = scratch.file("likes.jsonl")
    try write(
      """
      {"reactor": "ReactorExamples.LikeButtonReactor"}
      {"t": 0, "event": {"likeChanged": {"post": 1, "isLiked": true}}}
      {"t": 100, "action": "unlike"}

      """, to: script)
    let trace = scratch.file("likes.trace.jsonl")
    let recorded = try runReactorTrace(["record", "--actions", script, "-o", trace])
    #expect(recorded.exitCode == 0, "\(recorded.standardError)")
    let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    #expect(lines.count > 1 && lines[1].contains(#""t":0,"kind":"mutation""#))
    #expect(lines.count > 1 && lines[1].contains(#""label":"setLiked(true)""#))
    let replayed = try runReactorTrace(["replay", trace, "--mode", "mutate"])
    #expect(replayed.exitCode == 0, "\(replayed.standardOutput)\(replayed.standardError)")
    // A list with a view, whose events before its first action `record` always kept: mutate
    // replay, which started it at the first action, lost them.
    let list = try runReactorTrace([
      "replay", "Tests/Fixtures/tasklist-events-first.trace.jsonl", "--mode", "mutate",
    ])
    #expect(list.exitCode == 0, "\(list.standardOutput)\(list.standardError)")
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

/// `reactor-trace record` of an app's script: the whole app, through its session factory.
@Suite("reactor-trace record of an app's script, end to end")
struct RecordAppScriptCommandTests {
  @Test func theTaskAppsScriptRecordsTheCommittedSessionByteForByte() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("taskapp.session.jsonl")
    let result = try runReactorTrace([
      "record", "--actions", "Traces/taskapp.script.jsonl", "-o", output,
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      result.standardOutput
        == "wrote \(output): a session, 57 events of 9 reactors, from 9 actions to the app "
        + "TaskApp\n")
    let recorded = try Data(contentsOf: URL(fileURLWithPath: output))
    let committed = try Data(contentsOf: URL(fileURLWithPath: "Traces/taskapp.session.jsonl"))
    #expect(recorded == committed)
  }

  @Test func aStepThatReachesNoReactorExitsWith2NamingItsLineAndWritesNothing() throws {
    let scratch = try ScratchDirectory()
    let start = #"{"app": "TaskApp"}"# + "\n" + #"{"t": 0, "to": "list", "action": "refresh"}"#
    let cases: [(step: String, message: String)] = [
      (
        #"{"t": 200, "to": "lsit", "action": "refresh"}"#,
        "script.jsonl:3: 'lsit' reaches no reactor: no live reactor is named 'lsit'; named: "
          + "edit, list"
      ),
      (
        #"{"t": 200, "to": "list/cells.7", "action": "toggle"}"#,
        "script.jsonl:3: 'list/cells.7' reaches no reactor: the state of 'list' has nothing at "
          + "cells.7"
      ),
      (
        #"{"t": 200, "to": "list/cells[task.id=9]", "action": "toggle"}"#,
        "script.jsonl:3: 'list/cells[task.id=9]' reaches no reactor: none of the 3 reactors at "
          + "cells in the state of 'list' has task.id = 9"
      ),
      (
        #"{"t": 200, "to": "list/isLoading", "action": "toggle"}"#,
        "script.jsonl:3: 'list/isLoading' reaches no reactor: isLoading in the state of 'list' "
          + #"is false, not a reference to a live reactor ({"reactor": id})"#
      ),
      (
        #"{"t": 200, "to": "list/cells.0", "action": "flip"}"#,
        "script.jsonl:3: the action for 'list/cells.0' cannot be decoded: 'flip' is not a case "
          + #"of ReactorExamples.TaskCellReactor.Action; its cases: "toggle""#
      ),
      (
        #"{"t": 200, "to": "list/", "action": "toggle"}"#,
        "script.jsonl:3: malformed step: 'list/' is not a reactor address: a step after '/' "
          + "needs a path into the state, such as cells.0"
      ),
      (
        #"{"t": 200, "action": "refresh"}"#,
        "script.jsonl:3: malformed step: a step of TaskApp's script says which reactor it goes "
          + #"'to', such as "to": "list""#
      ),
    ]
    for (step, message) in cases {
      let script = scratch.file("script.jsonl")
      try (start + "\n" + step + "\n").write(toFile: script, atomically: true, encoding: .utf8)
      let output = scratch.file("out.session.jsonl")
      let result = try runReactorTrace(["record", "--actions", script, "-o", output])
      #expect(result.exitCode == 2, "\(step)")
      let lines = result.standardError.split(separator: "\n")
      #expect(lines.count == 1, "\(result.standardError)")
      #expect(lines.first?.hasSuffix(message) == true, "\(result.standardError)")
      #expect(!FileManager.default.fileExists(atPath: output))
    }
  }

  @Test func anAppScriptIsRefusedWithAReactorAndAnUnknownAppIsNamed() throws {
    let scratch = try ScratchDirectory()
    let script = scratch.file("script.jsonl")
    try (#"{"app": "TaskApp"}"# + "\n" + #"{"t": 0, "to": "list", "action": "refresh"}"# + "\n")
      .write(toFile: script, atomically: true, encoding: .utf8)
    let withReactor = try runReactorTrace([
      "record", "--actions", script, "--reactor", "counter", "-o", scratch.file("a.jsonl"),
    ])
    #expect(withReactor.exitCode == 2)
    #expect(withReactor.standardError.contains("is the script of the app TaskApp"))
    try (#"{"app": "Mail"}"# + "\n" + #"{"t": 0, "to": "inbox", "action": "refresh"}"# + "\n")
      .write(toFile: script, atomically: true, encoding: .utf8)
    let unknown = try runReactorTrace([
      "record", "--actions", script, "-o", scratch.file("b.jsonl"),
    ])
    #expect(unknown.exitCode == 2)
    #expect(
      unknown.standardError
        == "reactor-trace: no session factory is registered for app 'Mail'; registered: TaskApp, TodoApp\n"
    )
  }
}
