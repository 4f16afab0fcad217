/// Why a test could not be generated from a trace.
public enum TestGenerationError: Error, Sendable, Hashable {
  /// The trace could not be read.
  case unreadableTrace(String)
  /// No factory builds the trace's reactor: it is not a known example and none was given.
  case noFactory(reactor: String)
  /// An action sent in the trace has no Codable encoding, so the test cannot send it again.
  case actionWithoutValue(path: String, action: Int, label: String)
  /// The trace's scripted events cannot be read or handed over.
  case unusableEvents(path: String, reason: String)
  /// The traces record different reactors.
  case differentReactors(expected: String, found: String, path: String)
}

extension TestGenerationError: CustomStringConvertible {
  /// One line saying what went wrong.
  public var description: String {
    switch self {
    case .unreadableTrace(let reason): reason
    case .noFactory(let reactor):
      "no known factory builds \(reactor): pass --factory with an expression or function that "
        + "makes it on `clock`, e.g. --factory 'MyReactor(clock: clock)'"
    case .actionWithoutValue(let path, let action, let label):
      "\(path): action \(action) (\(label)) was recorded without its Codable value, so the "
        + "test cannot send it"
    case .unusableEvents(let path, let reason): "\(path): scripted events: \(reason)"
    case .differentReactors(let expected, let found, let path):
      "\(path) records \(found), not \(expected): generate one file per reactor"
    }
  }
}
