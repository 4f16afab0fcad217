public import ArgumentParser
import ReactorExploration
import ReactorTracing

/// The alphabet, bounds and state identity of an exploration: shared by `explore` and
/// `coverage`.
public struct ExplorationArguments: ParsableArguments, Sendable {
  /// A script whose actions form the alphabet.
  @Option(
    name: .customLong("actions"),
    help: "A script (as record --actions takes) whose distinct actions form the alphabet.")
  public var script: String?

  /// Traces whose actions form the alphabet.
  @Option(
    name: .customLong("actions-from"),
    help: "A trace whose distinct actions join the alphabet (repeatable).")
  public var actionTraces: [String] = []

  /// Metadata handed to the reactor's factory.
  @Option(
    name: .customLong("meta"), help: "Metadata for the reactor's factory as key=value (repeatable).")
  public var metadata: [String] = []

  /// Fields that identify a state.
  @Option(
    name: .customLong("key"),
    help: """
      Identify states by this field (repeatable): isLoading, user.name. Default: the whole \
      state, pulse counters left out.
      """)
  public var keys: [String] = []

  /// The depth bound.
  @Option(help: "The most actions on a path from the initial state.")
  public var maxDepth: Int?

  /// The state bound.
  @Option(help: "Stop after this many states.")
  public var maxStates = 10_000

  /// The time bound.
  @Option(help: "Stop after this many seconds of wall-clock time.")
  public var timeLimit: Double?

  /// How long effects may run after each action.
  @Option(help: "The most virtual milliseconds effects may run after each action.")
  public var settle = 10_000

  /// Creates the arguments; ArgumentParser fills them in.
  public init() {}

  /// Checks the numbers.
  public func validate() throws {
    for pair in metadata where !pair.contains("=") {
      throw ValidationError("--meta takes key=value, not '\(pair)'.")
    }
    if let maxDepth, maxDepth < 0 { throw ValidationError("--max-depth must not be negative.") }
    guard maxStates >= 1 else { throw ValidationError("--max-states must be at least 1.") }
    if let timeLimit, !(timeLimit > 0 && timeLimit.isFinite) {
      throw ValidationError("--time-limit must be a positive number of seconds.")
    }
    guard settle >= 0 else { throw ValidationError("--settle must not be negative.") }
  }

  /// The options these arguments give.
  var options: ExplorationOptions {
    ExplorationOptions(
      maximumDepth: maxDepth, maximumStates: maxStates,
      timeLimit: timeLimit.map { .nanoseconds(Int64($0 * 1e9)) },
      settleLimit: .milliseconds(settle), identity: StateIdentity(keys: keys))
  }

  /// The metadata of `--meta`, over the script's header.
  func metadata(over base: [String: String]) -> [String: String] {
    var result = base
    for pair in metadata {
      let parts = pair.split(separator: "=", maxSplits: 1)
      result[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
    }
    return result
  }
}

/// An exploration's inputs once read: the alphabet's encodings and the metadata.
struct ExplorationInputs {
  var alphabet: [JSONValue] = []
  var metadata: [String: String] = [:]
  /// The reactor the script's header names, or else the first trace's.
  var reactor: String?

  /// Reads the script and traces of `arguments`, plus `extraTraces` (whose actions join the
  /// alphabet too); distinct actions in order of first appearance. Without a script, the
  /// first trace's header gives the metadata and the reactor.
  init(_ arguments: ExplorationArguments, extraTraces: [String] = []) throws(ExitCode) {
    var seen: Set<JSONValue> = []
    func add(_ value: JSONValue) {
      if seen.insert(Self.expanded(value)).inserted { alphabet.append(value) }
    }
    var base: [String: String] = [:]
    if let path = arguments.script {
      let script: ActionScript
      do {
        script = try ActionScript(path: path)
      } catch {
        throw CommandFailure.unusableInput(error.description)
      }
      reactor = script.reactor
      base = script.metadata
      for step in script.steps {
        if case .action(let value) = step.input { add(value) }
      }
    }
    for path in arguments.actionTraces + extraTraces {
      do {
        let reader = try TraceReader(path: path, verifyingStates: false)
        if reactor == nil {
          reactor = reader.header.reactor
          base = reader.header.metadata.filter { $0.key != ScriptedEvents.metadataKey }
        }
        while let event = try reader.next() {
          if case .action(let action) = event.kind, case .sent = action.source,
            let value = action.value
          {
            add(value)
          }
        }
      } catch {
        throw CommandFailure.unusableInput(error.description)
      }
    }
    metadata = arguments.metadata(over: base)
  }

  /// `"increase"` as `{"increase": {}}`, so that both spellings count once.
  private static func expanded(_ value: JSONValue) -> JSONValue {
    if case .string(let name) = value { return .object(JSONObject([(name, .object(JSONObject()))])) }
    return value
  }
}
