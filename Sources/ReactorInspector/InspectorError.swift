public import ReactorTracing

/// Why an inspector page could not be made.
public enum InspectorError: Error, Sendable, Hashable {
  /// The trace could not be read.
  case unreadableTrace(TraceReadError)
  /// The unnamed temporary file that held the page's snapshots and diagram nodes while the
  /// events were written could not be written or read back.
  case temporaryFileFailed
  /// ``InspectorOptions/abstraction`` was set for a session of this many reactor types: it
  /// draws the states of one type.
  case abstractionOfSeveralTypes(Int)
}

extension InspectorError: CustomStringConvertible {
  /// One line saying what failed.
  public var description: String {
    switch self {
    case .unreadableTrace(let error): error.description
    case .temporaryFileFailed:
      "the temporary file holding the page's state snapshots could not be written or read back"
    case .abstractionOfSeveralTypes(let count):
      "a state abstraction draws the states of one reactor type, and the session has \(count); "
        + "its page draws each type's inferred state machine"
    }
  }
}
