/// Why a question about a trace has no answer: the text an agent reads as a tool error.
///
/// Every failure of a tool is one of these, with what the agent can do about it; the server
/// goes on answering.
public enum QueryError: Error, Equatable, Sendable, CustomStringConvertible {
  /// An argument is missing, of the wrong type or out of range.
  case invalidArgument(name: String, reason: String)
  /// The path leaves the root, names no file, or a file that is not a regular file.
  case refusedPath(path: String, reason: String)
  /// The trace cannot be read or indexed (the reader's or the replay's words).
  case unreadableTrace(path: String, reason: String)
  /// The trace has no event with this `seq`.
  case noSuchEvent(sequence: Int, range: String)
  /// The trace has no such reactor.
  case noSuchReactor(String, known: String)
  /// No tool, resource or prompt has this name.
  case unknownName(kind: String, name: String, known: String)
  /// The answer would show values the redaction hides.
  case redacted(reason: String)
  /// A run of `reactor-trace` failed.
  case commandFailed(String)

  /// The error for the agent: one sentence saying what is wrong and what to do.
  public var description: String {
    switch self {
    case .invalidArgument(let name, let reason): "argument '\(name)' \(reason)"
    case .refusedPath(let path, let reason): "cannot open '\(path)': \(reason)"
    case .unreadableTrace(let path, let reason): "cannot read '\(path)': \(reason)"
    case .noSuchEvent(let sequence, let range): "no event has seq \(sequence); \(range)"
    case .noSuchReactor(let reactor, let known): "no reactor \(reactor) in the trace; \(known)"
    case .unknownName(let kind, let name, let known): "no \(kind) '\(name)'; \(known)"
    case .redacted(let reason): reason
    case .commandFailed(let reason): reason
    }
  }
}
