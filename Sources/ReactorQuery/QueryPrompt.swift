/// A prompt the server offers: a question an agent asks about a trace, spelled out as the
/// tool calls that answer it.
public struct QueryPrompt: Sendable, Hashable {
  /// One of its arguments.
  public struct Argument: Sendable, Hashable {
    /// The argument's name.
    public let name: String
    /// What it is.
    public let description: String
    /// Whether it must be given.
    public let isRequired: Bool
  }

  /// Its name.
  public let name: String
  /// Its title, as agents list it.
  public let title: String
  /// What it asks.
  public let description: String
  /// Its arguments.
  public let arguments: [Argument]

  /// The prompts.
  public static let all: [QueryPrompt] = [
    QueryPrompt(
      name: "explain_divergence", title: "Explain this divergence",
      description: "Replay a trace through today's code and explain where and why it diverges.",
      arguments: [
        Argument(
          name: "trace", description: "The trace or session, relative to the root.",
          isRequired: true),
        Argument(
          name: "mode", description: "auto, structural, reduce or mutate.", isRequired: false),
      ]),
    QueryPrompt(
      name: "why_state_wrong", title: "Why is this state wrong",
      description: "Find which event made a state what it is, and the chain of causes behind it.",
      arguments: [
        Argument(
          name: "trace", description: "The trace or session, relative to the root.",
          isRequired: true),
        Argument(
          name: "seq", description: "The event after which the state looks wrong.", isRequired: true
        ),
        Argument(
          name: "path", description: "The state path that looks wrong, such as tasks.0.title.",
          isRequired: false),
      ]),
  ]

  /// The prompt's text for `arguments`.
  /// - Throws: ``QueryError`` for an unknown prompt or a missing argument.
  public static func text(_ name: String, arguments: [String: String]) throws(QueryError) -> String
  {
    guard let prompt = all.first(where: { $0.name == name }) else {
      throw .unknownName(
        kind: "prompt", name: String(name.prefix(100)),
        known: "the prompts are " + all.map(\.name).joined(separator: ", "))
    }
    for argument in prompt.arguments where argument.isRequired && arguments[argument.name] == nil {
      throw .invalidArgument(name: argument.name, reason: "is required")
    }
    let trace = arguments["trace"] ?? ""
    switch name {
    case "explain_divergence":
      let mode = arguments["mode"] ?? "auto"
      return """
        Replay the trace \(trace) with the replay tool (mode \(mode)). If it diverges, explain \
        the divergence: call why on the diverging seq for the chain of causes back to the \
        user's action, state_at just before and at it, and history of the state paths that \
        differ. Say which step of today's code does something else than the recording, and \
        cite each fact with its seq.
        """
    default:
      let path = arguments["path"].map { " at \($0)" } ?? ""
      let seq = arguments["seq"] ?? "?"
      return """
        In the trace \(trace), the state after seq \(seq) looks wrong\(path). Read it with \
        state_at, find the mutation that made it so with history\(path.isEmpty ? " of the field that looks wrong" : " of that path"), \
        and follow that mutation's chain of causes with why, back to the user's action or \
        the outside stream. Explain which step produced the wrong value, citing each fact \
        with its seq.
        """
    }
  }
}
