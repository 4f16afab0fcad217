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
        "events", "state_at", "why", "history", "replay", "diagram",
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

  @Test func aUsageErrorIsOneLineAndExitCode64() throws {
    for arguments in [["mcp", "--no-such-option"], ["mcp", "--redact", "nowhere.x"]] {
      let (status, output, errors) = try Self.run("reactor-trace", arguments)
      #expect(status == (arguments[1] == "--redact" ? 2 : 64), "\(arguments): \(errors)")
      #expect(errors.hasPrefix("reactor-trace: ") && errors.split(separator: "\n").count == 1)
      #expect(output.isEmpty)
    }
  }
}
