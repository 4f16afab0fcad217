public import ReactorTracing

/// A problem a structural replay found in a trace: something recorded that cannot have
/// happened, or was edited afterwards.
///
/// These are findings about a readable trace, not failures to read it: a command-line tool
/// exits with 1 for them and with 2 for a ``ReplayError``.
public enum StructuralDivergence: Sendable, Hashable {
  /// A rebuilt state does not match the hash recorded with it
  /// (``TraceReadError/stateMismatch(path:line:sequence:expected:actual:)``).
  case stateMismatch(TraceReadError)
  /// An event refers to an action or effect that was not seen before it.
  case brokenCause(sequence: Int, line: Int, reason: String)
  /// The `seq` numbers are not consecutive.
  case sequenceGap(line: Int, expected: Int, found: Int)

  /// The `seq` of the event concerned.
  public var sequence: Int {
    switch self {
    case .stateMismatch(let error):
      if case .stateMismatch(_, _, let sequence, _, _) = error { return sequence }
      return 0
    case .brokenCause(let sequence, _, _): return sequence
    case .sequenceGap(_, _, let found): return found
    }
  }
}

extension StructuralDivergence: CustomStringConvertible {
  /// One line naming the event and the problem.
  public var description: String {
    switch self {
    case .stateMismatch(let error):
      error.description
    case .brokenCause(let sequence, let line, let reason):
      "line \(line): event \(sequence) \(reason)"
    case .sequenceGap(let line, let expected, let found):
      "line \(line): expected event \(expected), found \(found)"
    }
  }
}
