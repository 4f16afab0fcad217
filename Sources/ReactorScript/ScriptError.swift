/// Why a script could not be read, derived from a trace, or run.
public enum ScriptError: Error, Sendable, Hashable {
  /// The file could not be read: it is missing, or not a trace.
  case unreadable(path: String, reason: String)
  /// A line is not a step or a header.
  case malformed(path: String, line: Int, reason: String)
  /// A step's action or event is not a value of the reactor's type.
  case undecodableInput(path: String, line: Int, what: String, reason: String)
  /// The reactor's `Action` (or event type) cannot be decoded at all.
  case notDecodable(String)
  /// The script hands events to a reactor whose fakes take none.
  case eventsNotAccepted(path: String, line: Int, reactor: String)
  /// The trace's `script.events` metadata is not a list of timed events.
  case unusableEvents(reason: String)
  /// The recorder could not start.
  case recordingFailed(String)
  /// A step of an app's script addresses no live reactor: an unknown name, or a path that
  /// reaches none.
  case unreachableReactor(path: String, line: Int, ReactorAddressError)
  /// The script is of one reactor where an app's is needed, or the other way round.
  case wrongKind(path: String, reason: String)
}

extension ScriptError: CustomStringConvertible {
  /// One line naming the file, the line and the problem.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "cannot read script '\(path)': \(reason)"
    case .malformed(let path, let line, let reason): "\(path):\(line): malformed step: \(reason)"
    case .undecodableInput(let path, let line, let what, let reason):
      "\(path):\(line): the \(what) cannot be decoded: \(reason)"
    case .notDecodable(let type): "the \(type) type is not Decodable, so it cannot be scripted"
    case .eventsNotAccepted(let path, let line, let reactor):
      "\(path):\(line): \(reactor) is registered without an event type, so the script cannot "
        + "send it events"
    case .unusableEvents(let reason): reason
    case .recordingFailed(let reason): "recording failed: \(reason)"
    case .unreachableReactor(let path, let line, let error): "\(path):\(line): \(error)"
    case .wrongKind(let path, let reason): "\(path): \(reason)"
    }
  }
}
