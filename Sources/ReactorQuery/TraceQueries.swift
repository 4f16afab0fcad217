public import ReactorTracing

/// The answers the MCP server gives: questions about traces and sessions under a root,
/// answered from an index of each file, built on the first question about it and kept while
/// the file does not change.
///
/// Every answer is text for the agent and JSON for programs (``QueryAnswer``); a failure is a
/// ``QueryError`` and leaves the service as it was. Paths are taken relative to the root and
/// refused outside it; states, payloads and labels are redacted as ``AnswerRedaction`` says.
public actor TraceQueries {
  /// The directory traces are read from.
  public let root: TraceRoot
  /// What answers hide.
  public let redaction: AnswerRedaction
  let runner: CommandRunner
  /// Events between two checkpoints of an index.
  let checkpointInterval: Int
  /// The indexes of the files asked about, by resolved path.
  var indexes: [String: TraceIndex] = [:]
  /// Answers of `reactor-trace` runs, by file identity and arguments.
  var commandAnswers: [CommandKey: QueryAnswer] = [:]

  /// A run of `reactor-trace` on a file as it was.
  struct CommandKey: Hashable {
    var identity: FileIdentity
    var arguments: [String]
  }

  /// A service over `root`.
  /// - Parameters:
  ///   - root: Where traces are read from.
  ///   - redaction: What answers hide (``AnswerRedaction/none`` for `--no-redact`).
  ///   - reactorTrace: The `reactor-trace` executable that replays and draws.
  public init(root: TraceRoot, redaction: AnswerRedaction, reactorTrace: String) {
    self.init(
      root: root, redaction: redaction, reactorTrace: reactorTrace,
      checkpointInterval: TraceIndex.defaultCheckpointInterval)
  }

  /// A service whose indexes keep states every `checkpointInterval` events (tests walk
  /// between many checkpoints of a short trace).
  init(
    root: TraceRoot, redaction: AnswerRedaction, reactorTrace: String, checkpointInterval: Int
  ) {
    self.root = root
    self.redaction = redaction
    runner = CommandRunner(executable: reactorTrace)
    self.checkpointInterval = checkpointInterval
  }

  /// Answers a call of the tool `name`.
  /// - Parameters:
  ///   - name: One of ``QueryTool/all``'s names.
  ///   - arguments: The call's arguments (a JSON object, or `nil`).
  /// - Returns: The answer, or why there is none.
  public func call(_ name: String, arguments: JSONValue?) -> Result<QueryAnswer, QueryError> {
    do throws(QueryError) {
      guard let tool = QueryTool.all.first(where: { $0.name == name }) else {
        throw .unknownName(
          kind: "tool", name: String(name.prefix(100)),
          known: "the tools are " + QueryTool.all.map(\.name).joined(separator: ", "))
      }
      let arguments = try ToolArguments(arguments, accepted: tool.argumentNames)
      switch name {
      case "events": return .success(try events(arguments))
      case "state_at": return .success(try stateAt(arguments))
      case "why": return .success(try why(arguments))
      case "history": return .success(try history(arguments))
      case "replay": return .success(try replay(arguments))
      case "shrink": return .success(try shrink(arguments))
      case "compare": return .success(try compare(arguments))
      case "coverage": return .success(try coverage(arguments))
      default: return .success(try diagram(arguments))
      }
    } catch {
      return .failure(error)
    }
  }

  /// The index of the file an argument names: built on the first question, again when the
  /// file changed.
  func index(_ arguments: ToolArguments) throws(QueryError) -> TraceIndex {
    let relative = try arguments.requiredString("trace")
    let path = try root.resolve(relative)
    if let index = indexes[path], FileIdentity(path: path) == index.identity {
      return index
    }
    indexes[path] = nil
    let index = try TraceIndex.build(
      path: path, name: root.relativePath(path), redaction: redaction,
      checkpointInterval: checkpointInterval)
    indexes[path] = index
    return index
  }

  /// The files asked about so far, relative to the root, sorted.
  public var openedTraces: [String] {
    indexes.values.map(\.name).sorted()
  }
}

/// An answer: text for the agent, and the same as JSON for programs (`structuredContent`).
public struct QueryAnswer: Sendable, Hashable {
  /// The answer as text.
  public var text: String
  /// The answer as a JSON object.
  public var structured: JSONValue

  /// An answer.
  public init(text: String, structured: JSONValue) {
    self.text = text
    self.structured = structured
  }
}
