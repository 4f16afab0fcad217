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
  /// A recording's subject is not the first's: another reactor, another app, a trace of one
  /// reactor among sessions or a session among traces.
  case differentSubjects(expected: TestSubject, found: TestSubject, path: String)
  /// A session that no test can drive again from the start.
  case unreplayableSession(path: String, reason: String)
  /// No session factory builds the session's app: none is registered for it.
  case noSessionFactory(app: String?)
  /// The factory given builds something other than the recording's subject: one reactor
  /// for an app's session, or an app for a trace of one reactor.
  case unusableFactory(subject: TestSubject)
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
    case .differentSubjects(.reactor(let expected), .reactor(let found), let path):
      "\(path) records \(found), not \(expected): generate one file per reactor"
    case .differentSubjects(.app(let expected), .app(let found), let path):
      "\(path) records app '\(found ?? "none")', not '\(expected ?? "none")': generate one "
        + "file per app"
    case .differentSubjects(.app, .reactor, let path):
      "\(path) is the trace of one reactor, not a session: generate its test in another file"
    case .differentSubjects(.reactor(let expected), .app, let path):
      "\(path) is a session, not a trace of \(expected): generate its test in another file"
    case .unreplayableSession(let path, let reason):
      "\(path): a test cannot drive this session again: \(reason)"
    case .noSessionFactory(let app?):
      "no session factory is registered for app '\(app)' with a test spelling: register it "
        + "with registerSession(app:including:test:make:)"
    case .noSessionFactory(nil):
      "the session's metadata names no 'app', so no session factory builds it"
    case .unusableFactory(.app):
      "--factory builds one reactor; a session's test builds the app through the session "
        + "factory registered for its app"
    case .unusableFactory(.reactor(let reactor)):
      "a session factory builds an app; the test of \(reactor) alone needs its reactor factory"
    }
  }
}
