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
  /// A recorder that encodes on its writer thread (``FileTraceRecorder``, the live recorder)
  /// cannot record the reactor: its `types` (`Action`, `Mutation`, `State`) can hold objects,
  /// such as child reactors, whose encoding must run on the main actor.
  case holdsObjects(reactor: String, types: [String])
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
    case .holdsObjects(let reactor, let types):
      "cannot record \(reactor) on a writer thread: its "
        + types.joined(separator: ", ")
        + " can hold objects (a class instance such as a child reactor, a closure or an "
        + "existential), which only the main actor may encode; record it in a session "
        + "(SessionRecorder), which encodes such values on the main actor"
    }
  }
}
