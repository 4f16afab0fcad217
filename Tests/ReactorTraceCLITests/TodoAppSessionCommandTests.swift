import Foundation
import ReactorTestSupport
import Testing

/// The session commands on the todo app (RxTodo ported: Codable rows in sections, edit
/// screens made on demand, a subclassed screen, a refresh sent at start-up), end to end
/// through the binary: record, every replay mode, rerecord, and explore and coverage of its
/// reactor types, one of which traps on an index path past its rows.
@Suite("The todo app's session, end to end")
struct TodoAppSessionCommandTests {
  /// Records the todo app's script into `scratch` and returns the session's path.
  private func recordSession(in scratch: borrowing ScratchDirectory) throws -> String {
    let path = scratch.file("todo.session.jsonl")
    let record = try runReactorTrace(
      ["record", "--actions", "Traces/todoapp.script.jsonl", "-o", path])
    #expect(record.exitCode == 0, "\(record.standardError)")
    return path
  }

  @Test func theSessionReplaysInEveryModeAndRecordsAgainByteForByte() throws {
    let scratch = try ScratchDirectory()
    let session = try recordSession(in: scratch)
    for mode in ["structural", "reduce", "mutate"] {
      let replay = try runReactorTrace(["replay", session, "--mode", mode])
      #expect(replay.exitCode == 0, "\(mode): \(replay.standardOutput)")
      #expect(replay.standardOutput.contains("match"), "\(mode): \(replay.standardOutput)")
    }
    // Effects played back from the recording: the subclassed compose screen is recorded by its
    // own type, and its lane replays through it.
    let recorded = try runReactorTrace(
      ["replay", session, "--mode", "mutate", "--effects", "recorded"])
    #expect(recorded.exitCode == 0, "\(recorded.standardOutput)\(recorded.standardError)")
    #expect(recorded.standardOutput.hasPrefix("match"), "\(recorded.standardOutput)")
    // The committed session is today's recording of the committed script.
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: session))
        == Data(contentsOf: URL(fileURLWithPath: "Traces/todoapp.session.jsonl")))
    let mutate = try runReactorTrace(["replay", session, "--mode", "mutate"])
    // The list's refresh is sent by its view as the factory builds the app: not re-sent.
    #expect(mutate.standardOutput.contains("re-sent the 8 user actions to TodoApp"))
    let again = scratch.file("again.session.jsonl")
    let rerecord = try runReactorTrace(["rerecord", session, "-o", again])
    #expect(rerecord.exitCode == 0, "\(rerecord.standardError)")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: again))
        == Data(contentsOf: URL(fileURLWithPath: session)))
  }

  @Test func theGeneratedTestLeavesTheStartUpRefreshToTheFactoryAndIsTheCommittedOne() throws {
    // `generate-test` runs the app's factory to learn what it sends at start-up (the list's
    // view sends `refresh`) and does not send that recorded action again; the committed
    // `TodoappSessionTests`, compiled and run by `swift test`, is what it writes.
    let scratch = try ScratchDirectory()
    let output = scratch.file("TodoappSessionTests.swift")
    let generated = try runReactorTrace([
      "generate-test", "Traces/todoapp.session.jsonl", "--suite-name", "TodoappSessionTests",
      "--serial-executor", "withExclusiveMainSerialExecutor", "--import", "ReactorTestSupport",
      "-o", output,
    ])
    #expect(generated.exitCode == 0, "\(generated.standardError)")
    let source = try String(contentsOfFile: output, encoding: .utf8)
    #expect(
      source.contains(
        "// list #1's action 1, sent at 0 ms by the app at start-up, not again: refresh"))
    #expect(!source.contains("try recorder.send(TodoListReactor.Action.refresh, to: 1)"))
    let committed = try String(
      contentsOfFile: repositoryRoot + "/Tests/GeneratedTraceTests/TodoappSessionTests.swift",
      encoding: .utf8)
    #expect(source == committed, "regenerate Tests/GeneratedTraceTests/TodoappSessionTests.swift")
  }

  @Test func exploringASessionReportsOneTypesTrapForThatTypeAndGoesOn() throws {
    let scratch = try ScratchDirectory()
    let session = try recordSession(in: scratch)
    let explore = try runReactorTrace(["explore", session, "--max-states", "200"])
    #expect(explore.terminationReason == .exit)
    #expect(explore.exitCode == 1)
    let lines = explore.standardOutput.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "TodoListReactor (1 reactor): the reactor trapped (Swift's message is on standard "
          + "error) after 1 action: selectTask([0, 0])"), "\(lines)")
    #expect(lines.contains { $0.hasPrefix("TodoCellReactor (5 reactors): explored 2 states") })
    // The subclassed compose screen is a type of its own (introduced by its dynamic type).
    #expect(lines.contains { $0.hasPrefix("TodoComposeReactor (1 reactor): explored") })
    #expect(lines.contains { $0.hasPrefix("TodoEditReactor (1 reactor): explored") })
    #expect(explore.standardError.contains("Fatal error: Index out of range"))
    let coverage = try runReactorTrace(["coverage", session, "--max-states", "200"])
    #expect(coverage.exitCode == 1)
    #expect(
      coverage.standardOutput.contains(
        "TodoListReactor: 1 reactor; the reactor trapped (Swift's message is on standard "
          + "error) after 1 action: selectTask([0, 0])"))
    #expect(coverage.standardOutput.contains("TodoCellReactor: 5 reactors merged; explored"))
  }

  @Test func aSessionsTypeIsExploredWithTheActionsGivenAndTypesCanBePicked() throws {
    let scratch = try ScratchDirectory()
    let session = try recordSession(in: scratch)
    let actions = scratch.file("list.jsonl")
    try """
    {"reactor": "ReactorExamples.TodoListReactor"}
    {"t": 0, "action": "refresh"}
    {"t": 0, "action": "addTask"}

    """.write(toFile: actions, atomically: true, encoding: .utf8)
    let explore = try runReactorTrace(
      ["explore", session, "--actions", actions, "--max-states", "200"])
    #expect(explore.exitCode == 0, "\(explore.standardOutput)")
    #expect(explore.standardOutput.contains("  alphabet: refresh, addTask\n"))
    #expect(explore.standardOutput.contains("  alphabet: toggle\n"))
    let picked = try runReactorTrace(
      ["explore", session, "--reactor-type", "TodoCellReactor", "--max-states", "200"])
    #expect(picked.exitCode == 0, "\(picked.standardOutput)")
    #expect(!picked.standardOutput.contains("TodoListReactor"))
    #expect(picked.standardOutput.contains("TodoCellReactor (5 reactors): explored"))
    let unknown = try runReactorTrace(["coverage", session, "--reactor-type", "Nope"])
    #expect(unknown.exitCode == 2)
    #expect(
      unknown.standardError
        == "reactor-trace: no reactor of type 'Nope' in the session; its types: "
        + "TodoListReactor, TodoCellReactor, TodoComposeReactor, TodoEditReactor\n")
    let forNoType = try runReactorTrace(
      ["explore", session, "--actions", "Traces/counter.actions.jsonl"])
    #expect(forNoType.exitCode == 2)
  }
}

/// Scripts that `record` writes the same way every time replay and record again the same way.
@Suite("Record and replay agree on valid app scripts")
struct RecordReplayAgreementTests {
  @Test func actionsAtTheSameTimeAfterACancellingOneReplayInTheRecordedOrder() throws {
    // The second refresh cancels the first; the cancelled effect's end is recorded before
    // the save sent at the same time, as `record` lets it end before each step.
    let scratch = try ScratchDirectory()
    let script = scratch.file("three.jsonl")
    try """
    {"app": "TaskApp"}
    {"t": 0, "to": "list", "action": "refresh"}
    {"t": 0, "to": "list", "action": "refresh"}
    {"t": 0, "to": "edit", "action": "save"}

    """.write(toFile: script, atomically: true, encoding: .utf8)
    let session = scratch.file("three.session.jsonl")
    #expect(try runReactorTrace(["record", "--actions", script, "-o", session]).exitCode == 0)
    let replay = try runReactorTrace(["replay", session, "--mode", "mutate"])
    #expect(replay.exitCode == 0, "\(replay.standardOutput)")
    let again = scratch.file("again.session.jsonl")
    #expect(try runReactorTrace(["rerecord", session, "-o", again]).exitCode == 0)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: again))
        == Data(contentsOf: URL(fileURLWithPath: session)))
  }

  @Test func aSessionRecordedWithoutSettlingReplaysToItsEnd() throws {
    let scratch = try ScratchDirectory()
    let session = scratch.file("unsettled.session.jsonl")
    let record = try runReactorTrace([
      "record", "--actions", "Traces/taskapp.script.jsonl", "--settle", "0", "-o", session,
    ])
    #expect(record.exitCode == 0)
    let replay = try runReactorTrace(["replay", session, "--mode", "mutate"])
    #expect(replay.exitCode == 0, "\(replay.standardOutput)")
  }

  @Test func recordAndRerecordWarnOnceThatTheListHoldsItsRowsInlineAndWriteTheSameBytes() throws {
    let scratch = try ScratchDirectory()
    let warning =
      "reactor-trace: warning: TodoListReactor holds its child TodoCellReactor inline: its "
      + "recorded state has reactor 2's state at sections.0.items.0, a copy that goes stale as "
      + #"the child changes; hold a ReactorReference there, recorded as {"reactor": 2}, the "#
      + "child's own lane (README.md, 'Recording a whole app')\n"
    let session = scratch.file("todo.session.jsonl")
    let record = try runReactorTrace(
      ["record", "--actions", "Traces/todoapp.script.jsonl", "-o", session])
    #expect(record.exitCode == 0)
    #expect(record.standardError == warning)
    // The committed session was recorded before the recorder looked for inline children.
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: session))
        == Data(contentsOf: URL(fileURLWithPath: "Traces/todoapp.session.jsonl")))
    let again = scratch.file("again.session.jsonl")
    let rerecord = try runReactorTrace(["rerecord", session, "-o", again])
    #expect(rerecord.exitCode == 0)
    #expect(rerecord.standardError == warning)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: again))
        == Data(contentsOf: URL(fileURLWithPath: session)))
    // The task app's list holds references to its rows: nothing to say.
    let task = try runReactorTrace(
      ["record", "--actions", "Traces/taskapp.script.jsonl", "-o", scratch.file("task.jsonl")])
    #expect(task.exitCode == 0)
    #expect(task.standardError.isEmpty, "\(task.standardError)")
  }

  @Test func anOutputRefusedAfterTheWarningPrintsItsErrorLineAlone() throws {
    let scratch = try ScratchDirectory()
    // The warning is noticed while recording; the output, a directory, is refused after.
    let record = try runReactorTrace(
      ["record", "--actions", "Traces/todoapp.script.jsonl", "-o", scratch.path])
    #expect(record.exitCode == 2)
    #expect(record.standardError.split(separator: "\n").count == 1, "\(record.standardError)")
    #expect(!record.standardError.contains("warning"), "\(record.standardError)")
  }
}
