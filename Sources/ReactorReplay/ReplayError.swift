public import ReactorTracing

/// Why a replay could not run: the trace is unreadable, was recorded from another reactor or
/// with incompatible types, or holds values the current types cannot decode.
///
/// A replay that runs and finds a difference does not throw: it returns a
/// ``ReplayResult`` with a ``ReplayDivergence``. A command-line tool exits with 2 for these
/// errors and with 1 for a divergence.
public enum ReplayError: Error, Sendable, Hashable {
  /// The trace could not be read.
  case trace(TraceReadError)
  /// The trace was recorded from another reactor type.
  case reactorMismatch(recorded: String, current: String)
  /// The Action, Mutation or State types changed since the trace was recorded in a way no
  /// trace of them survives: the header's schema and initial state (line 1) already differ.
  case incompatibleSchema([SchemaChange])
  /// A recorded action or mutation uses a case that changed since the recording: removed,
  /// renamed, or with another payload. `addedCases` are the cases of its type added since,
  /// which may be its new name.
  case changedCase(
    line: Int, sequence: Int, event: String, changes: [SchemaChange], addedCases: [String])
  /// The named type (`Mutation` or `State`) is not Codable, so its values cannot be decoded
  /// and compared.
  case notCodable(String)
  /// A recorded value could not be decoded into the current type.
  case undecodable(line: Int, reason: String)
  /// The trace has no value to replay: an action or mutation without `value`, or a state
  /// stored as a description.
  case missingValue(line: Int, what: String)
  /// The trace is a flight-recorder window, which starts from a snapshot at `firstSequence`
  /// after `droppedEvents` events: mutate replay needs the recording's start.
  case windowed(firstSequence: Int, droppedEvents: Int)
  /// A session has no reactor with this id (or none of the type asked for).
  case noSuchReactor(String, reactors: [Int])
}

extension ReplayError: CustomStringConvertible {
  /// A clear message; an incompatible schema lists each change on its own line.
  public var description: String {
    switch self {
    case .trace(let error):
      error.description
    case .reactorMismatch(let recorded, let current):
      "the trace was recorded from '\(recorded)', not '\(current)'"
    case .incompatibleSchema(let changes):
      (["the trace's types are not compatible with the current ones, from line 1 on:"]
        + changes.map { "  \($0)" }).joined(separator: "\n")
    case .changedCase(let line, let sequence, let event, let changes, let addedCases):
      "line \(line) (seq \(sequence)): \(event) uses a case that changed since the recording: "
        + changes.map(\.description).joined(separator: "; ")
        + (addedCases.isEmpty
          ? ""
          : " (cases added since: " + addedCases.map { "'\($0)'" }.joined(separator: ", ")
            + ")")
    case .notCodable(let type):
      "the \(type) type is not Codable, so recorded values cannot be replayed"
    case .undecodable(let line, let reason):
      "line \(line): the recorded value cannot be decoded: \(reason)"
    case .missingValue(let line, let what):
      "line \(line): the trace does not hold the \(what)'s value"
    case .windowed(let firstSequence, let droppedEvents):
      "the trace is a flight-recorder window that starts from a snapshot at event "
        + "\(firstSequence) (\(droppedEvents) earlier events dropped); mutate replay re-sends "
        + "actions from the reactor's initial state, so it needs the recording's start: use "
        + "--effects recorded, --mode reduce or --mode structural, which start from the "
        + "snapshot"
    case .noSuchReactor(let reactor, let reactors):
      "the session has no \(reactor); its reactors: "
        + (reactors.isEmpty ? "none" : reactors.map(String.init).joined(separator: ", "))
    }
  }
}
