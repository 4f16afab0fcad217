/// Why an exploration could not run or its result could not be used.
public enum ExplorationError: Error, Sendable, Hashable {
  /// A `--path-to` condition could not be read.
  case malformedCondition(String, reason: String)
  /// The alphabet is empty: there is nothing to try.
  case emptyAlphabet
  /// An action of the alphabet could not be decoded as the reactor's action.
  case undecodableAction(String, reason: String)
  /// The reactor's state or action cannot be encoded, so states cannot be told apart.
  case notEncodable(String)
  /// Running the same actions again from a new reactor ended in another state: the reactor
  /// depends on something the exploration does not control.
  case nondeterministic(script: String, expected: String, found: String)
  /// A saved exploration's JSON is not what `explore --format json` writes.
  case malformedExploration(String)
}

extension ExplorationError: CustomStringConvertible {
  /// One line saying what went wrong.
  public var description: String {
    switch self {
    case .malformedCondition(let text, let reason):
      "malformed state condition '\(text)': \(reason); write path=value,path=value"
    case .emptyAlphabet: "no actions to explore: the alphabet is empty"
    case .undecodableAction(let action, let reason):
      "the action \(action) cannot be decoded: \(reason)"
    case .notEncodable(let type):
      "the \(type) type is not Encodable, so explored states cannot be told apart"
    case .nondeterministic(let script, let expected, let found):
      "running [\(script)] again ended in \(found), not \(expected): the reactor depends on "
        + "something the exploration does not control"
    case .malformedExploration(let reason): "not an exploration saved by explore: \(reason)"
    }
  }
}
