public import ReactorTracing

/// A tool the server offers an agent: its name, what it answers, and its arguments as a JSON
/// Schema.
public struct QueryTool: Sendable, Hashable {
  /// The tool's name, as agents call it.
  public let name: String
  /// What it answers, for the agent.
  public let description: String
  /// Its arguments: a JSON Schema object.
  public let inputSchema: JSONValue

  /// The tools, in the order `tools/list` gives them.
  public static let all: [QueryTool] = [
    QueryTool(
      name: "events",
      description: """
        The events of a trace or session (actions, effects, mutations, reactors), filtered as \
        the inspector filters them: by reactor, kind, label text, a state path the event \
        changed (mutations after which the value at the path differs), and a seq range. Each \
        with its seq, time, reactor, label and cause. At most `limit` (default 50, at most \
        500), with the count of all that match.
        """,
      inputSchema: schema(
        [
          ("trace", traceProperty),
          ("reactor", reactorProperty),
          (
            "kind",
            property(
              "string",
              "action, effectStart, effectEnd, effect (both), mutation, streamEnd, reactor, "
                + "release, gap or end")
          ),
          ("text", property("string", "Text the label, reactor or kind contains (any case).")),
          ("path", pathProperty),
          ("from", property("integer", "The first seq.")),
          ("to", property("integer", "The last seq.")),
          ("limit", property("integer", "How many events to return (1 to 500, default 50).")),
        ], required: ["trace"])),
    QueryTool(
      name: "state_at",
      description: """
        The state after an event (seq; 0 is the initial state of a trace): in a session, every \
        live reactor's, or one reactor's. Rebuilt from the trace's snapshots and diffs and \
        checked against the recorded hashes.
        """,
      inputSchema: schema(
        [
          ("trace", traceProperty),
          ("seq", property("integer", "The event's seq.")),
          ("reactor", reactorProperty),
        ], required: ["trace", "seq"])),
    QueryTool(
      name: "why",
      description: """
        The cause chain of an event, across reactors: the mutation, the effect or action \
        behind it, the other reactor's action or effect that sent it or published the stream \
        element, back to the user's tap or an outside stream; each step with its seq and time.
        """,
      inputSchema: schema(
        [("trace", traceProperty), ("seq", property("integer", "The event's seq."))],
        required: ["trace", "seq"])),
    QueryTool(
      name: "history",
      description: """
        Every change of the value at a state path (tasks.0.title), with the value before and \
        after and what caused it; in a session, of every reactor that has the path unless \
        `reactor` names one. At most 200 changes.
        """,
      inputSchema: schema(
        [("trace", traceProperty), ("path", pathProperty), ("reactor", reactorProperty)],
        required: ["trace", "path"])),
    QueryTool(
      name: "replay",
      description: """
        Replays the trace through today's code of the registered reactors (reactor-trace \
        replay) and gives the verdict: match, or the first divergence, with what the exit \
        code means. mode: auto (default), structural, reduce or mutate.
        """,
      inputSchema: schema(
        [
          ("trace", traceProperty),
          ("mode", property("string", "auto, structural, reduce or mutate")),
        ], required: ["trace"])),
    QueryTool(
      name: "diagram",
      description: """
        A Mermaid diagram of the trace, to render in the chat: kind transitions (the states a \
        reactor went through; in a session, of one reactor type) or sequence (who sent what \
        to whom).
        """,
      inputSchema: schema(
        [
          ("trace", traceProperty),
          ("kind", property("string", "transitions or sequence")),
          ("reactor", reactorProperty),
        ], required: ["trace", "kind"])),
  ]

  private static let traceProperty = property(
    "string", "The trace or session file, relative to the server's root.")
  private static let pathProperty = property(
    "string", "A state path: fields and indices separated by dots, such as tasks.0.title.")
  private static let reactorProperty: JSONValue = [
    "description": "In a session: the reactor's id, or its name or type.",
    "type": ["integer", "string"],
  ]

  private static func property(_ type: String, _ description: String) -> JSONValue {
    ["type": .string(type), "description": .string(description)]
  }

  private static func schema(_ properties: [(String, JSONValue)], required: [String]) -> JSONValue {
    [
      "type": "object",
      "properties": .object(JSONObject(properties)),
      "required": .array(required.map { .string($0) }),
      "additionalProperties": false,
    ]
  }

  /// The names of a tool's arguments.
  var argumentNames: [String] {
    inputSchema["properties"]?.objectValue?.keys.map { $0 } ?? []
  }
}
