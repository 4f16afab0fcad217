import Foundation
import MCP
import ReactorQuery
import ReactorTracing

/// The MCP side of the server: each request handed to ``TraceQueries``, each answer and
/// error handed back as the protocol says (a failing tool is a result with `isError`, not a
/// protocol error, so that the agent reads why and goes on).
struct MCPAdapter: Sendable {
  let queries: TraceQueries

  /// Serves on standard input and output until the client closes them.
  func serve() async throws {
    let server = Server(
      name: "reactor-trace", version: "0.1.0", title: "reactor-trace",
      instructions: """
        Questions about reactor traces and sessions (JSON Lines files under the server's \
        root): events filters them, state_at rebuilds states, why follows an event's causes \
        back to the user, history follows a state path, replay checks the trace against \
        today's code, diagram draws Mermaid. seq numbers identify events.
        """,
      capabilities: .init(
        prompts: .init(listChanged: false), resources: .init(subscribe: false, listChanged: false),
        tools: .init(listChanged: false)))
    let queries = self.queries
    await server.withMethodHandler(ListTools.self) { _ in
      ListTools.Result(
        tools: QueryTool.all.map { tool in
          Tool(
            name: tool.name, description: tool.description,
            inputSchema: Self.value(tool.inputSchema),
            annotations: .init(
              readOnlyHint: true, destructiveHint: false, idempotentHint: true,
              openWorldHint: false))
        })
    }
    await server.withMethodHandler(CallTool.self) { parameters in
      let arguments = parameters.arguments.map { Self.json(.object($0)) }
      switch await queries.call(parameters.name, arguments: arguments) {
      case .success(let answer):
        let structured: Value? = Self.value(answer.structured)
        return CallTool.Result(
          content: [.text(text: answer.text, annotations: nil, _meta: nil)],
          structuredContent: structured)
      case .failure(let error):
        return CallTool.Result(
          content: [.text(text: error.description, annotations: nil, _meta: nil)], isError: true)
      }
    }
    await server.withMethodHandler(ListResources.self) { _ in
      ListResources.Result(
        resources: await queries.resources.map { resource in
          Resource(
            name: resource.name, uri: resource.uri, description: resource.description,
            mimeType: "application/json")
        })
    }
    await server.withMethodHandler(ReadResource.self) { parameters in
      switch await queries.read(uri: parameters.uri) {
      case .success(let text):
        return ReadResource.Result(
          contents: [.text(text, uri: parameters.uri, mimeType: "application/json")])
      case .failure(let error):
        throw MCPError.invalidParams(error.description)
      }
    }
    await server.withMethodHandler(ListPrompts.self) { _ in
      ListPrompts.Result(
        prompts: QueryPrompt.all.map { prompt in
          Prompt(
            name: prompt.name, title: prompt.title, description: prompt.description,
            arguments: prompt.arguments.map {
              Prompt.Argument(name: $0.name, description: $0.description, required: $0.isRequired)
            })
        })
    }
    await server.withMethodHandler(GetPrompt.self) { parameters in
      do throws(QueryError) {
        let text = try QueryPrompt.text(parameters.name, arguments: parameters.arguments ?? [:])
        return GetPrompt.Result(
          description: QueryPrompt.all.first { $0.name == parameters.name }?.title,
          messages: [.user(.text(text: text))])
      } catch {
        throw MCPError.invalidParams(error.description)
      }
    }
    try await server.start(transport: StdioTransport())
    await server.waitUntilCompleted()
  }

  /// A protocol value as JSON.
  static func json(_ value: Value) -> JSONValue {
    switch value {
    case .null: .null
    case .bool(let bool): .bool(bool)
    case .int(let int): .int(Int64(int))
    case .double(let double): .double(double)
    case .string(let string): .string(string)
    case .data(_, let data): .string(data.base64EncodedString())
    case .array(let elements): .array(elements.map(json))
    case .object(let members): .object(JSONObject(members.map { ($0.key, json($0.value)) }))
    }
  }

  /// JSON as a protocol value.
  static func value(_ json: JSONValue) -> Value {
    switch json {
    case .null: .null
    case .bool(let bool): .bool(bool)
    case .int(let int): Int(exactly: int).map { .int($0) } ?? .double(Double(int))
    case .uint(let uint): Int(exactly: uint).map { .int($0) } ?? .double(Double(uint))
    case .double(let double): .double(double)
    case .string(let string): .string(string)
    case .array(let elements): .array(elements.map(value))
    case .object(let object):
      .object(
        Dictionary(object.keys.map { ($0, value(object[$0]!)) }, uniquingKeysWith: { a, _ in a }))
    }
  }
}
