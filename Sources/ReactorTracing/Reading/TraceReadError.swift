import ReactorJSON

/// Why a trace could not be read: one clear line naming the file, and the line within it
/// when there is one.
public enum TraceReadError: Error, Hashable, Sendable {
  /// The file could not be opened.
  case cannotOpen(path: String, reason: String)
  /// Reading the file failed part way.
  case readFailed(path: String, reason: String)
  /// The file is empty.
  case empty(path: String)
  /// The file is not a trace: its first line is not a trace header.
  case notATrace(path: String, reason: String)
  /// The file declares a format other than `reactor-trace`.
  case unknownFormat(path: String, format: String)
  /// The trace's major version is newer than this reader.
  case unsupportedVersion(path: String, version: TraceFormatVersion)
  /// The header line is a trace header with a missing or malformed field.
  case malformedHeader(path: String, reason: String)
  /// An event line is malformed.
  case malformedLine(path: String, line: Int, reason: String)
  /// A line is longer than the reader's limit; reading stopped without buffering it.
  case lineTooLong(path: String, line: Int, limit: Int)
  /// A state reconstructed from snapshots and diffs does not match the hash recorded with
  /// it: the trace was edited or corrupted at this event.
  case stateMismatch(path: String, line: Int, sequence: Int, expected: TraceHash, actual: TraceHash)
}

extension TraceReadError: CustomStringConvertible {
  /// One line: `counter.jsonl:7: malformed event: missing field 'seq'`.
  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason):
      "cannot open '\(path)': \(reason)"
    case .readFailed(let path, let reason):
      "reading '\(path)' failed: \(reason)"
    case .empty(let path):
      "'\(path)' is empty, not a reactor-trace file"
    case .notATrace(let path, let reason):
      "'\(path)' is not a reactor-trace file: \(reason)"
    case .unknownFormat(let path, let format):
      "'\(path)' is a '\(format)' file, not a reactor-trace file"
    case .unsupportedVersion(let path, let version)
    where version.major == SessionHeader.currentVersion.major:
      "'\(path)' is a session trace (format \(version), several reactors in one file), "
        + "not the trace of one reactor; read it as a session (SessionReader)"
    case .unsupportedVersion(let path, let version):
      "'\(path)' uses trace format \(version), newer than this reader "
        + "(\(TraceHeader.currentVersion.major).x traces, "
        + "\(SessionHeader.currentVersion.major).x sessions); update reactor-trace to read it"
    case .malformedHeader(let path, let reason):
      "\(path):1: malformed trace header: \(reason)"
    case .malformedLine(let path, let line, let reason):
      "\(path):\(line): malformed event: \(reason)"
    case .lineTooLong(let path, let line, let limit):
      "\(path):\(line): line is longer than \(limit) bytes; stopped reading"
    case .stateMismatch(let path, let line, let sequence, let expected, let actual):
      "\(path):\(line): the state after event \(sequence) does not match its hash "
        + "(recorded \(expected), reconstructed \(actual)): the trace was edited or corrupted"
    }
  }
}
