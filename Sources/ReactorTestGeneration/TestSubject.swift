/// What a test generated from a recording builds and drives: one reactor, or an app.
///
/// A trace of one reactor is a session of one reactor; one rule over the recording decides
/// which: a recording that names no `app` in its metadata and introduces one reactor drives
/// that reactor alone (built by a ``ReactorFactory``), every other drives its app (built by a
/// ``SessionFactory``).
///
/// ```swift
/// let subject = try TestSubject(path: "Traces/counter.trace.jsonl")
/// // .reactor("ReactorExamples.CounterReactor"), whose suites end in "TraceTests"
/// ```
public enum TestSubject: Sendable, Hashable {
  /// One reactor, driven alone: its type as recorded.
  case reactor(String)
  /// An app of reactors: its `app` metadata, `nil` when the recording names none.
  case app(String?)

  /// The subject of a recording whose metadata names `app`, of reactors of these types.
  init(app: String?, reactors: [String]) {
    if app == nil, reactors.count == 1 { self = .reactor(reactors[0]) } else { self = .app(app) }
  }

  /// The subject of the recording at `path` (a trace or a session).
  /// - Throws: ``TestGenerationError`` when it cannot be read or planned.
  public init(path: String) throws(TestGenerationError) {
    self = try TestPlan(path: path).subject
  }

  /// How the names of suites of its tests end: `TraceTests` for a reactor, `SessionTests`
  /// for an app.
  public var suiteSuffix: String {
    switch self {
    case .reactor: "TraceTests"
    case .app: "SessionTests"
    }
  }
}
