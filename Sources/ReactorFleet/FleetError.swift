public import ReactorStateMachines
public import ReactorTracing

/// Why traces could not be summarized, or summaries read or merged.
public enum FleetError: Error, Sendable, Hashable {
  /// A trace could not be read.
  case trace(TraceReadError)
  /// A file could not be read, with the system's reason.
  case unreadable(path: String, reason: String)
  /// A `.gz` file is not gzip the reader can inflate.
  case badCompression(path: String, reason: String)
  /// A file, glob or directory named no input.
  case noInput(String)
  /// A summary line is not a summary: its line number and what is wrong.
  case malformedSummary(path: String, line: Int, reason: String)
  /// An abstraction's text could not be read back.
  case malformedAbstraction(String)
  /// A count or time in a summary is out of range after adding.
  case overflow(path: String, line: Int, field: String)
  /// The state abstraction could not be inferred from the traces.
  case abstraction(TransitionGraphError)
  /// Summaries of several reactors, or of several abstractions, where one is needed.
  case mixedSummaries(String)
}

extension FleetError: CustomStringConvertible {
  /// One line saying what went wrong, naming the file and line.
  public var description: String {
    switch self {
    case .trace(let error):
      error.description
    case .unreadable(let path, let reason):
      "cannot read '\(path)': \(reason)"
    case .badCompression(let path, let reason):
      "\(path): not readable gzip (\(reason))"
    case .noInput(let pattern):
      "'\(pattern)' names no file (no match, or an empty directory)"
    case .malformedSummary(let path, let line, let reason):
      "\(path):\(line): not a transition summary: \(reason)"
    case .malformedAbstraction(let reason):
      "not a state abstraction: \(reason)"
    case .overflow(let path, let line, let field):
      "\(path):\(line): '\(field)' overflows a 64-bit integer when added up"
    case .abstraction(let error):
      error.description
    case .mixedSummaries(let reason):
      reason
    }
  }
}
