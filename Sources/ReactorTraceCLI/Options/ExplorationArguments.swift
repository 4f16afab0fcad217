import ArgumentParser
import ReactorExploration
import ReactorStateMachines
import ReactorTracing

/// The alphabet, bounds and state identity of an exploration: shared by `explore` and
/// `coverage`.
struct ExplorationArguments: ParsableArguments, Sendable {
  /// A script whose actions form the alphabet.
  @Option(
    name: .customLong("actions"),
    help: "A script (as record --actions takes) whose distinct actions form the alphabet.")
  var script: String?

  /// Traces whose actions form the alphabet.
  @Option(
    name: .customLong("actions-from"),
    help: "A trace whose distinct actions join the alphabet (repeatable).")
  var actionTraces: [String] = []

  /// Metadata handed to the reactor's factory.
  @Option(
    name: .customLong("meta"), help: "Metadata for the reactor's factory as key=value (repeatable)."
  )
  var metadata: [String] = []

  /// Fields that identify a state.
  @Option(
    name: .customLong("key"),
    help: """
      Identify states by this field (repeatable): isLoading, user.name, tasks.0.title. \
      Default: the whole \
      state, pulse counters left out.
      """)
  var keys: [String] = []

  /// The reactor types of sessions to explore.
  @Option(
    help: """
      Of sessions: explore only this reactor type (repeatable): TaskCellReactor, or \
      module-qualified.
      """)
  var reactorType: [String] = []

  /// The depth bound.
  @Option(help: "The most actions on a path from the initial state.")
  var maxDepth: Int?

  /// The state bound: by default one that answers in seconds (a counter, whose states never
  /// end, in 3.4 s of CPU on a debug build), which the report names when it stops there.
  @Option(help: "Stop after this many states (raise it for a larger graph).")
  var maxStates = 1_000

  /// The time bound.
  @Option(help: "Stop after this many seconds of wall-clock time.")
  var timeLimit: Double?

  /// How long effects may run after each action.
  @Option(help: "The most virtual milliseconds effects may run after each action.")
  var settle = 10_000

  /// Creates the arguments; ArgumentParser fills them in.
  init() {}

  /// Checks the numbers.
  func validate() throws {
    for pair in metadata where !pair.contains("=") {
      throw ValidationError("--meta takes key=value, not '\(pair)'.")
    }
    if let maxDepth, maxDepth < 0 { throw ValidationError("--max-depth must not be negative.") }
    guard maxStates >= 1 else { throw ValidationError("--max-states must be at least 1.") }
    if let timeLimit, !(timeLimit > 0 && timeLimit.isFinite) {
      throw ValidationError("--time-limit must be a positive number of seconds.")
    }
    guard settle >= 0 else { throw ValidationError("--settle must not be negative.") }
    _ = try StatePath.arguments(keys, of: "--key")
  }

  /// Fails when an output would overwrite the script, a trace read for the alphabet, or one
  /// of `inputs`.
  func refuseToOverwrite(inputs: [String], with outputs: [String?]) throws(CommandFailure) {
    try OutputFiles.refuse(
      outputs.compactMap(\.self), ifAnyIs: inputs + actionTraces + (script.map { [$0] } ?? []))
  }

  /// The options these arguments give.
  var options: ExplorationOptions {
    ExplorationOptions(
      maximumDepth: maxDepth, maximumStates: maxStates,
      timeLimit: timeLimit.map { .nanoseconds(Int64($0 * 1e9)) },
      settleLimit: .milliseconds(settle),
      identity: StateIdentity(keys: (try? StatePath.arguments(keys, of: "--key")) ?? []))
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
