import Foundation
import ReactorTracing
import Testing

@Suite("reactor-trace explore and coverage, end to end")
struct ExploreCommandTests {
  private let counterAlphabet = """
    {"reactor": "ReactorExamples.CounterReactor", "meta": {"limit": "2"}}
    {"t": 0, "action": "increase"}
    {"t": 0, "action": "decrease"}

    """

  private func alphabet(in scratch: borrowing ScratchDirectory) throws -> String {
    let path = scratch.file("alphabet.jsonl")
    try counterAlphabet.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The state a trace ends in, rebuilt by the reader.
  private func finalState(of path: String) throws -> JSONValue? {
    let reader = try TraceReader(path: path)
    while try reader.next() != nil {}
    guard case .json(let state) = reader.currentState else { return nil }
    return state
  }

  @Test(arguments: [
    ("isLoading=false,value=2", 2, false, JSONValue.null),
    ("isLoading=false,value=-2", -2, false, .null),
    ("alertMessage=Limit reached", 2, false, "Limit reached"),
  ])
  func pathToScriptsReplayThroughRecordToTheRequestedState(
    condition: String, value: Int, isLoading: Bool, alert: JSONValue
  ) throws {
    let scratch = try ScratchDirectory()
    let explored = try runReactorTrace([
      "explore", "ReactorExamples.CounterReactor", "--actions", alphabet(in: scratch),
      "--max-depth", "6", "--path-to", condition,
    ])
    #expect(explored.exitCode == 0, "\(explored.standardError)")
    #expect(explored.standardError.isEmpty)
    let script = scratch.file("path.jsonl")
    try explored.standardOutput.write(toFile: script, atomically: true, encoding: .utf8)
    let trace = scratch.file("path.trace.jsonl")
    let recorded = try runReactorTrace(["record", "--actions", script, "-o", trace])
    #expect(recorded.exitCode == 0, "\(recorded.standardError)")
    let state = try #require(try finalState(of: trace))
    #expect(state["value"] == .int(Int64(value)))
    #expect(state["isLoading"] == .bool(isLoading))
    #expect(state["alertMessage"]?["value"] == alert)
  }

  @Test func exploreReportsStatesTransitionsAndTheBoundThatStoppedIt() throws {
    let scratch = try ScratchDirectory()
    let graph = scratch.file("graph.json")
    let result = try runReactorTrace([
      "explore", "ReactorExamples.CounterReactor", "--actions", alphabet(in: scratch),
      "--max-depth", "4", "--graph", graph,
    ])
    #expect(result.exitCode == 0)
    #expect(
      result.standardOutput == """
        explored ReactorExamples.CounterReactor: 18 states (9 resting), 38 transitions, 14 runs
        alphabet: increase, decrease
        stopped by: depth bound 4 (states 4 actions away not expanded)
        wrote \(graph)
        invariants: none registered

        """)
    let json = try JSONValue(
      parsing: String(decoding: try Data(contentsOf: URL(fileURLWithPath: graph)), as: UTF8.self))
    #expect(json["states"]?.arrayValue?.count == 18)
    #expect(json["stoppedBy"]?["kind"] == "depth")
    let printed = try runReactorTrace([
      "explore", "ReactorExamples.CounterReactor", "--actions", alphabet(in: scratch),
      "--max-depth", "4", "--format", "json",
    ])
    #expect(printed.exitCode == 0)
    #expect(try JSONValue(parsing: printed.standardOutput) == json)
  }

  @Test func exploreWithoutAnAlphabetTriesTheActionsCasesWithoutPayloadAndSaysSo() throws {
    let result = try runReactorTrace([
      "explore", "ReactorExamples.CounterReactor", "--meta", "limit=2", "--max-depth", "4",
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      result.standardError
        == "reactor-trace: note: no --actions or --actions-from: exploring the cases of the "
        + "Action without payload (Optional payloads as nil): \"decrease\", \"increase\"\n")
    #expect(
      result.standardOutput.hasPrefix(
        "explored ReactorExamples.CounterReactor: 18 states (9 resting), 38 transitions, "
          + "14 runs\nalphabet: decrease, increase\n"))
  }

  @Test func exploreWithoutAnAlphabetSendsOptionalPayloadsAsNil() throws {
    let result = try runReactorTrace([
      "explore", "ReactorExamples.ItemListReactor", "--max-depth", "2",
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      result.standardError
        == "reactor-trace: note: no --actions or --actions-from: exploring the cases of the "
        + "Action without payload (Optional payloads as nil): \"load\", {\"setFilter\":{}}\n")
    #expect(result.standardOutput.contains("alphabet: load, setFilter(nil)\n"))
  }

  @Test func badExploreInputExitsWith2NamingTheProblem() throws {
    let scratch = try ScratchDirectory()
    let path = try alphabet(in: scratch)
    let cases: [([String], String)] = [
      (["explore", "Nope", "--actions", path], "unknown reactor 'Nope'"),
      (
        ["explore", "ReactorExamples.CounterReactor", "--actions", path, "--path-to", "value"],
        "malformed state condition 'value'"
      ),
      (
        ["explore", "ReactorExamples.CounterReactor", "--actions", path, "--graph", "x.txt"],
        "cannot tell the format of 'x.txt'"
      ),
      (
        ["explore", "ReactorExamples.CounterReactor", "--actions", path, "-o", path],
        "is the input"
      ),
      (
        ["coverage", "Traces/counter.trace.jsonl", "--graph", "Traces/counter.trace.jsonl"],
        "is the input"
      ),
    ]
    for (arguments, message) in cases {
      let result = try runReactorTrace(arguments)
      #expect(result.exitCode == 2, "\(arguments)")
      #expect(result.standardError.hasPrefix("reactor-trace: "), "\(arguments)")
      #expect(result.standardError.contains(message), "\(result.standardError)")
      #expect(result.standardError.split(separator: "\n").count == 1)
    }
    let unmatched = try runReactorTrace([
      "explore", "ReactorExamples.CounterReactor", "--actions", path, "--max-depth", "2",
      "--path-to", "value=7",
    ])
    #expect(unmatched.exitCode == 1)
    #expect(unmatched.standardOutput.isEmpty)
    #expect(unmatched.standardError.contains("no explored state matches 'value=7'"))
  }

  @Test func coverageOfTheCounterTraceIsMeasuredAndGatedByMin() throws {
    let scratch = try ScratchDirectory()
    let json = try runReactorTrace([
      "coverage", "Traces/counter.trace.jsonl", "--max-depth", "4", "--json",
    ])
    #expect(json.exitCode == 0, "\(json.standardError)")
    let report = try JSONValue(parsing: json.standardOutput)
    #expect(report["reactor"] == "ReactorExamples.CounterReactor")
    #expect(report["states"]?["reachable"] == 18)
    #expect(report["transitions"]?["reachable"] == 38)
    #expect(report["transitions"]?["exercised"] == 10)
    #expect(report["transitions"]?["outsideExploration"] == 0)
    let missed = try #require(report["missed"]?.arrayValue)
    #expect(missed.count == 28)
    #expect(missed.first?["script"] == ["decrease"])

    let diagram = scratch.file("coverage.svg")
    let gated = try runReactorTrace([
      "coverage", "Traces/counter.trace.jsonl", "--max-depth", "4", "--min", "50", "--graph",
      diagram,
    ])
    #expect(gated.exitCode == 4)
    #expect(gated.standardOutput.contains("transitions: 10 of 38 exercised (26.3%)"))
    #expect(
      gated.standardError == "reactor-trace: transition coverage 26.3% is below --min 50%\n")
    let svg = try String(contentsOfFile: diagram, encoding: .utf8)
    #expect(svg.contains("stroke-dasharray"))

    // The same coverage against the exploration saved by explore, without exploring again.
    let saved = scratch.file("explored.json")
    let alphabet = try alphabet(in: scratch)
    #expect(
      try runReactorTrace([
        "explore", "ReactorExamples.CounterReactor", "--actions", alphabet, "--max-depth", "4",
        "--graph", saved,
      ]).exitCode == 0)
    let again = try runReactorTrace([
      "coverage", "Traces/counter.trace.jsonl", "--exploration", saved, "--json",
    ])
    #expect(again.exitCode == 0, "\(again.standardError)")
    #expect(try JSONValue(parsing: again.standardOutput) == report)
    try "{}".write(toFile: saved, atomically: true, encoding: .utf8)
    let broken = try runReactorTrace([
      "coverage", "Traces/counter.trace.jsonl", "--exploration", saved,
    ])
    #expect(broken.exitCode == 2)
    #expect(broken.standardError.contains("not an exploration saved by explore: reactor"))

    let mixed = try runReactorTrace([
      "coverage", "Traces/counter.trace.jsonl", "Traces/profile.trace.jsonl", "--max-depth", "1",
    ])
    #expect(mixed.exitCode == 2)
    #expect(
      mixed.standardError
        == "reactor-trace: Traces/profile.trace.jsonl records ReactorExamples.ProfileReactor, "
        + "not ReactorExamples.CounterReactor\n")
  }
}

@Suite("reactor-trace explore and coverage of a session, end to end")
struct SessionExploreCommandTests {
  @Test func coverageOfTheTaskAppSessionIsReportedPerReactorType() throws {
    let result = try runReactorTrace(["coverage", "Traces/taskapp.session.jsonl"])
    #expect(result.exitCode == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(
      lines.first
        == "1 session: 9 reactors of 3 types, each type's reactors merged and seen through its "
        + "abstraction")
    // The list is not registered as a reactor of its own; the edit screen and the rows are.
    #expect(lines.contains("TaskAppListReactor: 1 reactor; not registered, so not explored"))
    let edit = try #require(lines.firstIndex { $0.hasPrefix("TaskEditReactor: 1 reactor;") })
    #expect(lines[edit].hasSuffix("through the abstraction 7 states, 17 transitions"))
    #expect(lines[edit + 1] == "  states:      7 of 7 exercised (100.0%)")
    #expect(lines[edit + 2] == "  transitions: 10 of 17 exercised (58.8%)")
    // Saving with nothing typed is never done in the session: the script that does it.
    #expect(
      lines.contains(
        "    editing=nil, isSaving=false, title=empty → editing=nil, isSaving=true, "
          + "title=empty  setSaving ← save   script: save"))
    // Seven rows, each from its own task, merged into the type's one abstract state; the
    // toggle reaches the row back through the service as the exploration's does, the edit
    // screen's rename reaches it from another reactor, through a stream, as a trace's
    // report says it.
    let cells = try #require(
      lines.firstIndex { $0.hasPrefix("TaskCellReactor: 7 reactors merged;") })
    #expect(lines[cells].hasSuffix("through the abstraction 1 state, 1 transition"))
    #expect(lines[cells + 1] == "  states:      1 of 1 exercised (100.0%)")
    #expect(lines[cells + 2] == "  transitions: 1 of 1 exercised (100.0%)")
    #expect(
      lines[cells + 3].hasPrefix(
        "  the traces also make 1 transition through a stream that no action of theirs "
          + "published"))

    let gated = try runReactorTrace(["coverage", "Traces/taskapp.session.jsonl", "--min", "60"])
    #expect(gated.exitCode == 4)
    #expect(
      gated.standardError
        == "reactor-trace: transition coverage of TaskEditReactor is below --min 60%\n")
  }

  @Test func coverageOfASessionAsJSONHasOneEntryPerReactorType() throws {
    let result = try runReactorTrace(["coverage", "Traces/taskapp.session.jsonl", "--json"])
    #expect(result.exitCode == 0, "\(result.standardError)")
    let json = try JSONValue(parsing: result.standardOutput)
    #expect(json["reactors"] == .int(9))
    guard case .array(let types)? = json["types"] else {
      Issue.record("no types: \(result.standardOutput)")
      return
    }
    #expect(
      types.map { $0["reactor"] }
        == [
          "ReactorExamples.TaskAppListReactor", "ReactorExamples.TaskEditReactor",
          "ReactorExamples.TaskCellReactor",
        ].map { JSONValue.string($0) })
    #expect(types[0]["notExplored"] == .string("not registered, so not explored"))
    #expect(types[1]["transitions"]?["exercised"] == .int(10))
    #expect(types[1]["transitions"]?["reachable"] == .int(17))
    #expect(types[2]["reactors"] == .int(7))
    #expect(types[2]["states"]?["share"] == .double(1))
    #expect(types[2]["transitions"]?["outsideExploration"] == .int(0))
    #expect(types[2]["transitions"]?["fromStreams"] == .int(1))
    // One report shape: a reactor type's entry is a trace's coverage and its reactor count.
    let trace = try runReactorTrace([
      "coverage", "Traces/counter.trace.jsonl", "--max-depth", "2", "--json",
    ])
    guard case .object(let ofTrace) = try JSONValue(parsing: trace.standardOutput),
      case .object(let ofType) = types[1]
    else {
      Issue.record("not objects: \(trace.standardOutput)")
      return
    }
    #expect(Set(ofType.keys) == Set(ofTrace.keys).union(["reactors"]))
    #expect(
      Set(ofType["transitions"]?.objectValue?.keys ?? [])
        == Set(ofTrace["transitions"]?.objectValue?.keys ?? []))
    let gated = try runReactorTrace([
      "coverage", "Traces/taskapp.session.jsonl", "--json", "--min", "60",
    ])
    #expect(gated.exitCode == 4)
    #expect(gated.standardError.isEmpty)
  }

  @Test func exploringASessionExploresEachRegisteredReactorType() throws {
    let result = try runReactorTrace(["explore", "Traces/taskapp.session.jsonl"])
    #expect(result.exitCode == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.contains("TaskAppListReactor (1 reactor): not registered, so not explored"))
    #expect(
      lines.contains(
        "TaskEditReactor (1 reactor): explored 14 states (6 resting), 39 transitions, 24 runs; "
          + "through the type's abstraction 7 states"))
    #expect(
      lines.contains(
        "TaskCellReactor (7 reactors): explored 2 states (2 resting), 2 transitions, 2 runs; "
          + "through the type's abstraction 1 state"))
    #expect(lines.contains("  alphabet: toggle"))
    #expect(
      lines.filter { $0 == "  stopped by: fixed point (every reachable state explored)" }.count == 2
    )
  }

  @Test func exploringATraceExploresItsReactorTypeAsASessionOfOneReactor() throws {
    let result = try runReactorTrace([
      "explore", "Traces/counter.trace.jsonl", "--max-depth", "2",
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      result.standardOutput == """
        Traces/counter.trace.jsonl: 1 reactor of 1 type, each registered type explored from \
        its registered factory with the actions its reactors were sent
        CounterReactor (1 reactor): explored 10 states (5 resting), 18 transitions, 6 runs; \
        through the type's abstraction 10 states
          alphabet: increase, decrease
          stopped by: depth bound 2 (states 2 actions away not expanded)
          invariants: none registered

        """)
  }

  @Test func optionsOfOneReactorTypeAreRefusedForASession() throws {
    let session = "Traces/taskapp.session.jsonl"
    let cases: [([String], String)] = [
      (["explore", session, "--graph", "x.svg"], "--graph does not apply to sessions"),
      (["explore", session, "--path-to", "title=x"], "--path-to does not apply to sessions"),
      (["coverage", session, "--graph", "x.svg"], "--graph does not apply to sessions"),
      (["coverage", session, "--key", "title"], "--key does not apply to sessions"),
      (
        ["coverage", session, "Traces/counter.trace.jsonl"],
        "counter.trace.jsonl is the trace of one reactor, not a session"
      ),
    ]
    for (arguments, message) in cases {
      let result = try runReactorTrace(arguments)
      #expect(result.exitCode == 2, "\(arguments)")
      #expect(result.standardError.contains(message), "\(result.standardError)")
      #expect(result.standardError.split(separator: "\n").count == 1)
    }
  }
}

@Suite("reactor-trace generate-test, end to end")
struct GenerateTestCommandTests {
  @Test func theCounterTestWrittenToStandardOutputIsTheCommittedOne() throws {
    let result = try runReactorTrace([
      "generate-test", "Traces/counter.trace.jsonl", "--serial-executor",
      "withExclusiveMainSerialExecutor", "--import", "ReactorTestSupport",
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    let committed = try String(
      contentsOfFile: repositoryRoot + "/Tests/GeneratedTraceTests/CounterTraceTests.swift",
      encoding: .utf8)
    #expect(result.standardOutput == committed)
  }

  @Test func theTaskAppSessionTestWrittenToStandardOutputIsTheCommittedOne() throws {
    let result = try runReactorTrace([
      "generate-test", "Traces/taskapp.session.jsonl", "--serial-executor",
      "withExclusiveMainSerialExecutor", "--import", "ReactorTestSupport",
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    let committed = try String(
      contentsOfFile: repositoryRoot + "/Tests/GeneratedTraceTests/TaskappSessionTests.swift",
      encoding: .utf8)
    #expect(result.standardOutput == committed)
  }

  @Test func aSessionTestChecksOnlyTheFinalStatesOrTheKeysAsked() throws {
    let final = try runReactorTrace([
      "generate-test", "Traces/taskapp.session.jsonl", "--final-state",
    ])
    #expect(final.exitCode == 0, "\(final.standardError)")
    // Alive at the end: the list (its 3 cells and isLoading), the edit screen (isSaving and
    // title) and cells 7, 8 and 9 (3 fields each); released: cells 3, 4, 5 and 6.
    let checks = final.standardOutput.components(separatedBy: "#expect(").count - 1
    #expect(checks == 4 + 2 + 9 + 4)
    #expect(final.standardOutput.contains(#"#expect(field(5, "") == nil,"#))
    #expect(final.standardOutput.contains("@Suite struct TaskappSessionTests {"))
    let keys = try runReactorTrace([
      "generate-test", "Traces/taskapp.session.jsonl", "--key", "task.title",
    ])
    #expect(keys.exitCode == 0, "\(keys.standardError)")
    #expect(!keys.standardOutput.contains(#""isLoading")"#))
    #expect(keys.standardOutput.contains(##"field(4, "task.title") == #""Record a session""#"##))
  }

  @Test func badSessionInputExitsWith2NamingTheProblem() throws {
    let scratch = try ScratchDirectory()
    let other = scratch.file("other.session.jsonl")
    let original = try String(
      contentsOfFile: repositoryRoot + "/Traces/taskapp.session.jsonl", encoding: .utf8)
    try original.replacingOccurrences(of: #""app":"TaskApp""#, with: #""app":"OtherApp""#)
      .write(toFile: other, atomically: true, encoding: .utf8)
    let session = "Traces/taskapp.session.jsonl"
    let cases: [([String], String)] = [
      (["generate-test", other], "no session factory is registered for app 'OtherApp'"),
      (["generate-test", session, "--factory", "makeApp"], "--factory builds one reactor"),
      (
        ["generate-test", session, "Traces/counter.trace.jsonl"],
        "counter.trace.jsonl is the trace of one reactor, not a session"
      ),
      (["generate-test", session, other], "records app 'OtherApp', not 'TaskApp'"),
    ]
    for (arguments, message) in cases {
      let result = try runReactorTrace(arguments)
      #expect(result.exitCode == 2, "\(arguments)")
      #expect(result.standardError.contains(message), "\(result.standardError)")
      #expect(result.standardError.split(separator: "\n").count == 1)
    }
  }

  @Test func badGenerateTestInputExitsWith2NamingTheProblem() throws {
    let scratch = try ScratchDirectory()
    let custom = scratch.file("custom.trace.jsonl")
    let original = try String(
      contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8)
    try original.replacingOccurrences(
      of: "ReactorExamples.CounterReactor", with: "MyApp.CounterReactor"
    ).write(toFile: custom, atomically: true, encoding: .utf8)
    let cases: [([String], String)] = [
      (["generate-test", custom], "no known factory builds MyApp.CounterReactor"),
      (["generate-test", scratch.file("missing.jsonl")], "missing.jsonl"),
      (
        ["generate-test", "Traces/counter.trace.jsonl", "-o", "Traces/counter.trace.jsonl"],
        "is the input"
      ),
    ]
    for (arguments, message) in cases {
      let result = try runReactorTrace(arguments)
      #expect(result.exitCode == 2, "\(arguments)")
      #expect(result.standardError.contains(message), "\(result.standardError)")
      #expect(result.standardError.split(separator: "\n").count == 1)
    }
    let withFactory = try runReactorTrace([
      "generate-test", custom, "--factory", "makeCounter", "--final-state", "--xctest",
    ])
    #expect(withFactory.exitCode == 0)
    #expect(withFactory.standardOutput.contains("let reactor = makeCounter(clock: clock)"))
    #expect(withFactory.standardOutput.contains("final class CustomTraceTests: XCTestCase {"))
  }
}
