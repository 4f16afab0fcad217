/// A recorder could not start, or could not write what it recorded.
public enum TraceRecordingError: Error, Hashable, Sendable {
  /// A redaction pattern is malformed.
  case invalidRedaction(String, reason: String)
  /// An option is out of range.
  case invalidOption(String)
  /// The trace file could not be created.
  case cannotCreate(path: String, reason: String)
  /// Writing the trace file failed; events after the failure were not written.
  case writeFailed(path: String, reason: String)
}

extension TraceRecordingError: CustomStringConvertible {
  /// One line saying what went wrong.
  public var description: String {
    switch self {
    case .invalidRedaction(let pattern, let reason):
      "invalid redaction pattern '\(pattern)': \(reason)"
    case .invalidOption(let reason):
      "invalid trace option: \(reason)"
    case .cannotCreate(let path, let reason):
      "cannot create trace file '\(path)': \(reason)"
    case .writeFailed(let path, let reason):
      "writing trace file '\(path)' failed: \(reason)"
    }
  }
}
