import ArgumentParser
import ReactorDiagrams
import ReactorStateMachines
import ReactorTracing

/// `--key`, `--field` and `--whole-state`: how a transitions diagram makes states into nodes,
/// shared by `render transitions` and `render inspector`.
struct StateAbstractionOptions: ParsableArguments, Sendable {
  /// Fields that states are projected onto.
  @Option(
    name: .customLong("key"),
    help: "Project states onto this field (repeatable): isLoading, user.name, tasks.0.title.")
  var keys: [String] = []

  /// Per-field overrides of the inferred abstraction, `name=how`.
  @Option(
    name: .customLong("field"),
    help: "Draw a field this way (repeatable): NAME=value|case|nil|empty|count|omit|event.")
  var fields: [String] = []

  /// Whether every distinct state is its own node.
  @Flag(help: "Make every distinct whole state a node, as recorded.")
  var wholeState = false

  /// Creates the options; ArgumentParser fills them in.
  init() {}

  /// Checks the options before anything is read.
  func validate() throws {
    _ = try statePaths()
    if wholeState && (!keys.isEmpty || !fields.isEmpty) {
      throw ValidationError("--whole-state cannot be combined with --key or --field.")
    }
    if !keys.isEmpty && !fields.isEmpty {
      throw ValidationError("--key and --field cannot be combined; --key shows whole values.")
    }
    _ = try overrides()
  }

  /// `--field` as a dictionary, or a usage error naming the bad one.
  func overrides() throws -> [String: FieldAbstraction] {
    var result: [String: FieldAbstraction] = [:]
    for field in fields {
      let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, !parts[0].isEmpty, let how = FieldAbstraction(rawValue: parts[1])
      else {
        let names = FieldAbstraction.allCases.map(\.rawValue).joined(separator: ", ")
        throw ValidationError("--field \(field): expected NAME=HOW, HOW one of \(names).")
      }
      result[parts[0]] = how
    }
    return result
  }

  /// The abstraction the options name: the whole state, a projection onto `--key`, or the
  /// one inferred from the traces with `--field` overriding it.
  ///
  /// - Parameter paths: The traces, read once more when the abstraction is inferred.
  /// - Returns: How the diagram draws states.
  /// - Throws: ``TransitionGraphError`` when a trace cannot be read or `--field` names no
  ///   field.
  func abstraction(forTracesAt paths: [String]) throws -> StateAbstraction {
    if wholeState { return .wholeState }
    if !keys.isEmpty { return StateAbstraction(keys: try statePaths()) }
    return try StateAbstraction.inferred(fromTracesAt: paths, overrides: try overrides())
  }

  /// `--key` as paths.
  ///
  /// - Returns: The paths, in order.
  /// - Throws: A `ValidationError` naming a malformed one.
  func statePaths() throws -> [StatePath] {
    try StatePath.arguments(keys, of: "--key")
  }

  /// A message naming the first `--key` the trace's state has no field for, or `nil`.
  func unknownKey(in header: TraceHeader) -> String? {
    StateKeyPaths(header).unknown((try? statePaths()) ?? [])
  }
}
