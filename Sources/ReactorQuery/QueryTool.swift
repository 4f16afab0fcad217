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
        reactor went through; in a session, one machine per reactor type, or the type of \
        `reactor`) or sequence (who sent what to whom).
        """,
      inputSchema: schema(
        [
          ("trace", traceProperty),
          ("kind", property("string", "transitions or sequence")),
          ("reactor", reactorProperty),
        ], required: ["trace", "kind"])),
    QueryTool(
      name: "shrink",
      description: """
        Shrinks a run that makes something happen to the shortest script that still does \
        (reactor-trace shrink): input is a script, trace or session; the condition is \
        until_state (fields the state must hold, as explore --path-to takes them: value=10; \
        for an app, after the reactor's address: edit:title=Bug), until_invariant or \
        until_trap. Runs through the registered reactors in worker processes (a trap is \
        contained). Gives the shrunk script; output, test and trace write new files under \
        the root. Stops at time_limit seconds (default 120, at most 600).
        """,
      inputSchema: schema(
        [
          ("input", property("string", "The script, trace or session, relative to the root.")),
          ("until_state", stringsProperty("Fields the state must hold (all at once).")),
          ("until_invariant", property("boolean", "A registered invariant must break.")),
          ("until_trap", property("boolean", "The reactor's own code must trap.")),
          ("reactor", property("string", "The registered reactor type (default: the input's).")),
          ("meta", stringsProperty("Header metadata as key=value.")),
          (
            "settle",
            property("integer", "Virtual milliseconds effects may run after the last step.")
          ),
          ("strategy", property("string", "fast (default) or ddmin")),
          ("time_limit", timeLimitProperty),
          (
            "output",
            property("string", "Also write the shrunk script here (a new file under the root).")
          ),
          ("test", property("string", "Also write a Swift Testing test here (a new file).")),
          ("suite_name", property("string", "With test: the suite's name.")),
          ("trait", stringsProperty("With test: Swift Testing traits.")),
          ("import", stringsProperty("With test: modules to import.")),
          ("trace", property("string", "Also write the shrunk run's trace here (a new file).")),
        ], required: ["input"])),
    QueryTool(
      name: "compare",
      description: """
        What changed in behaviour between two sets of runs, beyond chance (reactor-trace \
        compare): before and after are traces, sessions or transition summaries (files or \
        directories under the root), or one set as before split by before_where and \
        after_where (metadata KEY=VALUE, all must hold). Per reactor type: transitions added \
        and removed, shifts in how often they are taken, moves in how effects end, \
        corrected together at alpha. diagram: true adds the union machine as Mermaid.
        """,
      inputSchema: schema(
        [
          (
            "before",
            stringsProperty("The before side (or the set to split): files or directories.")
          ),
          ("after", stringsProperty("The after side: files or directories.")),
          ("before_where", stringsProperty("Split before: the before side's KEY=VALUE.")),
          ("after_where", stringsProperty("Split before: the after side's KEY=VALUE.")),
          ("alpha", property("number", "The false discovery rate (default 0.05).")),
          ("abstraction", property("string", "Abstract traces' states as this file saves them.")),
          ("diagram", property("boolean", "Add the union machine as Mermaid.")),
          ("reactor", property("string", "With diagram: the reactor type to draw.")),
          ("time_limit", timeLimitProperty),
        ], required: ["before"])),
    QueryTool(
      name: "coverage",
      description: """
        Which reachable states and transitions of a reactor traces exercise (reactor-trace \
        coverage): explores the registered reactor and lists every transition no trace \
        makes, with the shortest script that makes it; sessions per reactor type. With \
        production (merged transition summaries), what production reaches that the traces \
        never do.
        """,
      inputSchema: schema(
        [
          ("traces", stringsProperty("Traces or sessions (files or directories).")),
          (
            "reactor",
            property("string", "The registered reactor type (default: the first trace's).")
          ),
          ("actions", property("string", "A script whose actions join the alphabet.")),
          ("meta", stringsProperty("Metadata for the reactor's factory as key=value.")),
          ("key", stringsProperty("State paths that identify a state.")),
          ("reactor_type", stringsProperty("Of sessions: the reactor types to measure.")),
          ("max_depth", property("integer", "The most actions on a path from the initial state.")),
          ("max_states", property("integer", "Stop exploring after this many states.")),
          (
            "settle", property("integer", "Virtual milliseconds effects may run after each action.")
          ),
          ("min", property("number", "The least share of transitions, in percent, that passes.")),
          ("production", stringsProperty("Merged transition summaries of production runs.")),
          ("limit", property("integer", "With production: list at most this many (0: all).")),
          ("time_limit", timeLimitProperty),
        ], required: ["traces"])),
  ]

  private static let traceProperty = property(
    "string", "The trace or session file, relative to the server's root.")
  private static let pathProperty = property(
    "string", "A state path: fields and indices separated by dots, such as tasks.0.title.")
  private static let reactorProperty: JSONValue = [
    "description": "In a session: the reactor's id, or its name or type.",
    "type": ["integer", "string"],
  ]

  private static let timeLimitProperty = property(
    "number", "Seconds the run may take (default 120, at most 600).")

  private static func stringsProperty(_ description: String) -> JSONValue {
    [
      "type": ["array", "string"], "items": ["type": "string"],
      "description": .string(description),
    ]
  }

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
