import Foundation
import ReactorTracing
import Testing

/// The server as an agent meets it: the built executable, through `reactor-trace mcp`, spoken
/// to at the protocol level over standard input and output.
@Suite("reactor-trace mcp over the protocol", .serialized)
struct MCPProtocolTests {
  static let counter = "Traces/counter.trace.jsonl"
  static let session = "Traces/taskapp.session.jsonl"

  /// The text of a tool result.
  static func text(_ result: JSONValue?) -> String {
    result?["content"]?.arrayValue?[0]["text"]?.stringValue ?? ""
  }

  @Test func initializeListsTheToolsAndEveryToolAnswersOnTheCommittedTraces() throws {
    let client = try MCPClient(arguments: ["--root", repositoryRoot])
    let initialized = try #require(try client.initialize())
    #expect(initialized["result"]?["serverInfo"]?["name"] == "reactor-trace")
    #expect(initialized["result"]?["capabilities"]?["tools"] != nil)
    let tools = try #require(try client.request("tools/list")?["result"]?["tools"]?.arrayValue)
    #expect(
      tools.map { $0["name"]?.stringValue } == [
        "events", "state_at", "why", "history", "replay", "diagram", "shrink", "compare",
        "coverage",
      ])
    #expect(tools[0]["inputSchema"]?["required"] == ["trace"])

    let events = try client.call("events", ["trace": .string(Self.counter), "limit": 2])
    #expect(events?["isError"] == nil || events?["isError"] == false)
    #expect(events?["structuredContent"]?["matched"] == 20)
    #expect(Self.text(events).contains("seq 1 at 0.000 s, CounterReactor: action increase"))

    let state = try client.call("state_at", ["trace": .string(Self.session), "seq": 20])
    #expect(state?["structuredContent"]?["states"]?.arrayValue?.count == 6)
    #expect(Self.text(state).contains(#"reactor 2 (TaskEditReactor 'edit'): {"isSaving":true"#))

    let why = try client.call("why", ["trace": .string(Self.session), "seq": 35])
    #expect(
      why?["structuredContent"]?["chain"]?.arrayValue?.map { $0["seq"]?.intValue } == [35, 33, 32])

    let history = try client.call("history", ["trace": .string(Self.counter), "path": "value"])
    #expect(history?["structuredContent"]?["changes"]?.arrayValue?.count == 3)

    let replay = try client.call("replay", ["trace": .string(Self.session), "mode": "mutate"])
    #expect(replay?["structuredContent"]?["verdict"] == "match")
    #expect(replay?["structuredContent"]?["exitCode"] == 0)
    let structural = try client.call("replay", ["trace": .string(Self.counter)])
    #expect(Self.text(structural).contains("match (exit code 0"))

    let transitions = try client.call(
      "diagram", ["trace": .string(Self.counter), "kind": "transitions"])
    #expect(Self.text(transitions).hasPrefix("```mermaid\nstateDiagram-v2\n"))
    let sequence = try client.call(
      "diagram", ["trace": .string(Self.session), "kind": "sequence", "reactor": "list"])
    #expect(
      sequence?["structuredContent"]?["mermaid"]?.stringValue?.hasPrefix("sequenceDiagram") == true)
    #expect(client.close() == 0)
  }

  @Test func aSessionsTransitionsAreOneMermaidMachinePerReactorType() throws {
    let client = try MCPClient(arguments: ["--root", repositoryRoot, "--no-redact"])
    _ = try client.initialize()
    let all = try client.call("diagram", ["trace": .string(Self.session), "kind": "transitions"])
    #expect(all?["isError"] == nil || all?["isError"] == false, "\(Self.text(all))")
    let mermaid = try #require(all?["structuredContent"]?["mermaid"]?.stringValue)
    #expect(mermaid.hasPrefix("stateDiagram-v2\n"))
    #expect(
      mermaid.split(separator: "\n").filter { $0.hasSuffix("{") } == [
        #"    state "TaskAppListReactor · 1 reactor merged" as t1 {"#,
        #"    state "TaskEditReactor · 1 reactor merged" as t2 {"#,
        #"    state "TaskCellReactor · 7 reactors merged" as t3 {"#,
      ])
    #expect(mermaid.contains(" of 7 reactors"))
    // One type, named by a reactor of it: that type's machine alone.
    let cells = try client.call(
      "diagram",
      ["trace": .string(Self.session), "kind": "transitions", "reactor": "TaskCellReactor"])
    let cell = try #require(cells?["structuredContent"]?["mermaid"]?.stringValue)
    #expect(cell.contains(#"as t1 {"#) && !cell.contains("as t2"))
    #expect(cell.contains("TaskCellReactor · 7 reactors merged"))
    // A reactor by its name: its type's machine.
    let list = try client.call(
      "diagram", ["trace": .string(Self.session), "kind": "transitions", "reactor": "list"])
    #expect(
      list?["structuredContent"]?["mermaid"]?.stringValue?.contains(
        "TaskAppListReactor · 1 reactor merged") == true)
    #expect(client.close() == 0)
  }

  @Test func shrinkCompareAndCoverageRunThroughTheRegisteredReactorsAndATrapLeavesTheServerUp()
    throws
  {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("reactor-trace-mcp-runs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("out"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    for trace in [Self.counter, Self.session] {
      try FileManager.default.copyItem(
        atPath: repositoryRoot + "/" + trace,
        toPath: root.appendingPathComponent(String(trace.split(separator: "/").last!)).path)
    }
    // An item list whose 26th step deletes rows that are not there: the reactor traps.
    var lines = [#"{"reactor": "ReactorExamples.ItemListReactor"}"#]
    for step in 0..<30 {
      lines.append(
        step == 25
          ? #"{"t": \#(step * 100), "action": {"delete": {"_0": {"indexes": [1, 0]}}}}"#
          : #"{"t": \#(step * 100), "action": "load"}"#)
    }
    try (lines.joined(separator: "\n") + "\n").write(
      to: root.appendingPathComponent("list.jsonl"), atomically: true, encoding: .utf8)
    let client = try MCPClient(arguments: ["--root", root.path])
    _ = try client.initialize()

    let shrunk = try client.call(
      "shrink", ["input": "list.jsonl", "until_trap": true, "output": "out/shrunk.jsonl"])
    #expect(shrunk?["structuredContent"]?["verdict"] == "shrunk", "\(Self.text(shrunk))")
    #expect(shrunk?["structuredContent"]?["result"]?["steps"] == 1)
    #expect(Self.text(shrunk).contains(#""delete""#))
    #expect(
      try String(contentsOf: root.appendingPathComponent("out/shrunk.jsonl"), encoding: .utf8)
        .contains("delete"))
    // The reactor trapped in the workers; the server answers on.
    let after = try client.call("state_at", ["trace": "counter.trace.jsonl", "seq": 4])
    #expect(after?["structuredContent"]?["states"]?.arrayValue?[0]["state"]?["value"] == 1)
    // Outputs are new files inside the root.
    for output in ["out/shrunk.jsonl", "../escape.jsonl", "/tmp/escape.jsonl", "out"] {
      let refused = try client.call(
        "shrink", ["input": "list.jsonl", "until_trap": true, "output": .string(output)])
      #expect(refused?["isError"] == true, "\(output)")
    }
    let noCondition = try client.call("shrink", ["input": "list.jsonl"])
    #expect(noCondition?["isError"] == true)

    let same = try client.call(
      "compare", ["before": "taskapp.session.jsonl", "after": ["taskapp.session.jsonl"]])
    #expect(same?["structuredContent"]?["verdict"] == "no change", "\(Self.text(same))")
    #expect(same?["structuredContent"]?["exitCode"] == 0)
    let drawn = try client.call(
      "compare",
      [
        "before": ["counter.trace.jsonl"], "after": ["counter.trace.jsonl"], "diagram": true,
      ])
    #expect(
      drawn?["structuredContent"]?["mermaid"]?.stringValue?.hasPrefix("stateDiagram-v2") == true,
      "\(Self.text(drawn))")
    let outside = try client.call(
      "compare", ["before": ["counter.trace.jsonl"], "after": ["../"]])
    #expect(outside?["isError"] == true)

    let covered = try client.call(
      "coverage", ["traces": ["counter.trace.jsonl"], "max_depth": 4])
    #expect(covered?["structuredContent"]?["verdict"] == "measured", "\(Self.text(covered))")
    #expect(covered?["structuredContent"]?["result"]?["transitions"]?["reachable"] == 38)
    let gated = try client.call(
      "coverage", ["traces": ["counter.trace.jsonl"], "max_depth": 4, "min": 90])
    #expect(gated?["structuredContent"]?["exitCode"] == 4)
    let badLimit = try client.call(
      "coverage", ["traces": ["counter.trace.jsonl"], "time_limit": 0])
    #expect(badLimit?["isError"] == true)
    #expect(client.close() == 0)
  }

  @Test func errorsAreToolErrorsAndTheNextCallIsAnswered() throws {
    let client = try MCPClient(arguments: [])
    _ = try client.initialize()
    let failing: [(String, JSONValue)] = [
      ("events", ["trace": "../../etc/passwd"]),
      ("events", ["trace": "/etc/passwd"]),
      ("state_at", ["trace": .string(Self.counter), "seq": 100_000]),
      ("why", ["trace": .string(Self.counter), "seq": "nope"]),
      ("history", ["trace": .string(Self.counter), "path": ""]),
      ("replay", ["trace": .string(Self.counter), "mode": "sideways"]),
      ("diagram", ["trace": "README.md", "kind": "sequence"]),
      ("shrink", ["input": "../../etc/passwd", "until_trap": true]),
      ("compare", ["before": "Traces/counter.trace.jsonl"]),
      ("coverage", ["traces": ["/etc/passwd"]]),
      ("no_such_tool", [:]),
    ]
    for (tool, arguments) in failing {
      let result = try #require(try client.call(tool, arguments), "\(tool): no result")
      #expect(result["isError"] == true, "\(tool) \(arguments)")
      #expect(!Self.text(result).isEmpty)
      // The call after each error is answered.
      let after = try client.call("state_at", ["trace": .string(Self.counter), "seq": 4])
      #expect(after?["structuredContent"]?["states"]?.arrayValue?[0]["state"]?["value"] == 1)
    }
    // Not JSON at all: a protocol error, and the server goes on.
    try client.sendRaw("{ this is not json")
    #expect(try client.request("ping")?["result"] != nil)
    #expect(client.isRunning)
    #expect(client.close() == 0)
  }

  @Test func resourcesAndPromptsAreListedAndRead() throws {
    let client = try MCPClient(arguments: ["--root", repositoryRoot])
    _ = try client.initialize()
    _ = try client.call("events", ["trace": .string(Self.session), "limit": 1])
    let resources = try #require(
      try client.request("resources/list")?["result"]?["resources"]?.arrayValue)
    #expect(
      resources.map { $0["uri"]?.stringValue } == [
        "reactor-trace://header/" + Self.session, "reactor-trace://schema/" + Self.session,
      ])
    let read = try client.request("resources/read", ["uri": resources[1]["uri"] ?? .null])
    let text = try #require(read?["result"]?["contents"]?.arrayValue?[0]["text"]?.stringValue)
    #expect(try JSONValue(parsing: text)["schemas"]?["ReactorExamples.TaskEditReactor"] != nil)
    let outside = try client.request(
      "resources/read", ["uri": "reactor-trace://header/../../etc/passwd"])
    #expect(outside?["error"] != nil)
    let prompts = try #require(
      try client.request("prompts/list")?["result"]?["prompts"]?.arrayValue)
    #expect(prompts.map { $0["name"]?.stringValue } == ["explain_divergence", "why_state_wrong"])
    let prompt = try client.request(
      "prompts/get", ["name": "explain_divergence", "arguments": ["trace": .string(Self.session)]])
    #expect(
      prompt?["result"]?["messages"]?.arrayValue?[0]["content"]?["text"]?.stringValue?.contains(
        "replay")
        == true)
    #expect(client.close() == 0)
  }

  @Test func anUnusableRootEndsTheServerWithOneLineAndExitCode2() throws {
    let client = try MCPClient(arguments: ["--root", "/nonexistent/root"])
    #expect(client.close() == 2)
  }
}

@Suite("reactor-trace mcp on the command line")
struct MCPCommandLineTests {
  /// Runs a built executable with `arguments`; returns its status, output and errors.
  static func run(_ name: String, _ arguments: [String]) throws -> (Int32, String, String) {
    let process = Process()
    process.executableURL = try productsDirectory().appendingPathComponent(name)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outputData, as: UTF8.self),
      String(decoding: errorData, as: UTF8.self)
    )
  }

  @Test func mcpHelpIsTheServersHelpWithEveryOption() throws {
    let (status, output, errors) = try Self.run("reactor-trace", ["mcp", "--help"])
    #expect(status == 0, "\(errors)")
    for option in ["--root", "--redact", "--no-redact", "--reactor-trace", "Exit codes"] {
      #expect(output.contains(option), "\(option) missing")
    }
    let (_, server, _) = try Self.run("reactor-trace-mcp", ["--help"])
    #expect(server == output)
  }

  @Test func anEscapeSequenceInAnErrorReachesTheTerminalAsText() throws {
    let (status, output, errors) = try Self.run(
      "reactor-trace-mcp", ["--root", "/nonexistent/\u{1B}[2Kroot\nforged"])
    #expect(status == 2, "\(errors)")
    #expect(errors.contains("\\u001B[2Kroot\\u000Aforged"), "\(errors)")
    #expect(!errors.contains("\u{1B}") && errors.split(separator: "\n").count == 1)
    #expect(output.isEmpty)
  }

  @Test func aUsageErrorIsOneLineAndExitCode64() throws {
    for arguments in [["mcp", "--no-such-option"], ["mcp", "--redact", "nowhere.x"]] {
      let (status, output, errors) = try Self.run("reactor-trace", arguments)
      #expect(status == (arguments[1] == "--redact" ? 2 : 64), "\(arguments): \(errors)")
      #expect(errors.hasPrefix("reactor-trace: ") && errors.split(separator: "\n").count == 1)
      #expect(output.isEmpty)
    }
  }
}
