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
  ///
  /// The test builds the reactor on a `TestClock` with a ``ReactorFactory``, advances the
  /// clock to each recorded action's time and sends it (and hands scripted events to the
  /// fakes at theirs), and checks the fields that changed before and right after each action
  /// and at the end, with ``stateJSON``-style comparisons of canonical JSON, each with a
  /// message naming the action after which the field changed and the time.
  case reactor(String)
  /// An app of reactors: its `app` metadata, `nil` when the recording names none.
  ///
  /// The test drives the session as session mutate replay does: on a `TestClock`, with a
  /// `SessionRecorder` recording every reactor the ``SessionFactory``'s `including` accepts,
  /// it builds the app with the factory's statements, sends each action the user sent (with
  /// no origin in another reactor) at its recorded time to the reactor with its recorded id
  /// (`try recorder.send(TaskEditReactor.Action.save, to: 2)`), and hands scripted events to
  /// the factory's `deliver`. The clock stops at every time the session shows an event;
  /// there, and before each action, every reactor's changed fields are checked
  /// (``stateJSON(of:in:at:)``-style, reactors addressed by id), a new reactor's every field,
  /// a released reactor's absence, each with a message naming the reactor.
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
