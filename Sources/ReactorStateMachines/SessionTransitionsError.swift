/// Why the state machines of the reactor types of traces or sessions cannot be drawn as asked.
public enum SessionTransitionsError: Error, Sendable, Hashable {
  /// No reactor of the session has the type asked for.
  case unknownReactorType(String, known: [String])
}

extension SessionTransitionsError: CustomStringConvertible {
  /// One line that says what went wrong and what to do about it.
  public var description: String {
    switch self {
    case .unknownReactorType(let type, let known):
      "no reactor of type '\(type)' in the session; its types are "
        + known.joined(separator: ", ")
    }
  }
}
