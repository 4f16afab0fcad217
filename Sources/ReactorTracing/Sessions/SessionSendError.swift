/// Why a recorded action could not be sent to a reactor of a session being recorded.
public enum SessionSendError: Error, Hashable, Sendable {
  /// The session has no live reactor with this id.
  case notAlive(Int)
  /// The recorded value does not decode as the reactor's action.
  case undecodable(Int, reason: String)
  /// The recorded state a jump sets does not decode as the reactor's state.
  case undecodableState(Int, reason: String)
  /// The action sent is not of the reactor's `Action` type.
  case wrongType(Int, expected: String, found: String)
}

extension SessionSendError: CustomStringConvertible {
  /// One line naming the reactor.
  public var description: String {
    switch self {
    case .notAlive(let reactor):
      "reactor \(reactor) is not alive in this session"
    case .undecodable(let reactor, let reason):
      "the action for reactor \(reactor) does not decode: \(reason)"
    case .undecodableState(let reactor, let reason):
      "the state for reactor \(reactor) does not decode: \(reason)"
    case .wrongType(let reactor, let expected, let found):
      "reactor \(reactor) takes \(expected), not \(found)"
    }
  }
}
