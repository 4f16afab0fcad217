public import ReactorTracing

/// Why an inspector page could not be made.
public enum InspectorError: Error, Sendable, Hashable {
  /// The trace could not be read.
  case unreadableTrace(TraceReadError)
}

extension InspectorError: CustomStringConvertible {
  /// One line saying what failed.
  public var description: String {
    switch self {
    case .unreadableTrace(let error): error.description
    }
  }
}
