/// Why a ``LiveCommand`` was not taken: each case one line for the user.
public enum LiveCommandError: Error, Hashable, Sendable {
  /// The command is not one the server takes (its body, an option).
  case malformed(String)
  /// The server refused the token.
  case wrongToken
  /// The server refused the command: the reason it gave (an app that did not opt in, a
  /// stream that is gone, an action that does not decode, too many commands).
  case refused(status: Int, reason: String)
  /// The server could not be reached, or answered something that is not an answer.
  case unreachable(String)
}

extension LiveCommandError: CustomStringConvertible {
  /// The error as one line.
  public var description: String {
    switch self {
    case .malformed(let reason): "malformed command: \(reason)"
    case .wrongToken: "refused: the server refused the token"
    case .refused(_, let reason): "refused: \(reason)"
    case .unreachable(let reason): "cannot reach the server: \(reason)"
    }
  }
}
