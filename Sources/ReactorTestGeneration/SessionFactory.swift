public import ReactorTracing

/// How a test generated from a session builds the app: the registered session factory
/// spelled as Swift source.
///
/// The statements run with a `TestClock` named `clock` and a `SessionRecorder` named
/// `recorder` already recording every reactor that `including` accepts; like the factory
/// session mutate replay runs, they build the app on `clock`, record the reactors it creates
/// outside every reactor by hand with their session names, in the order the session
/// introduced them, bind its views, and declare `let app` (kept alive for the test).
///
/// ```swift
/// let factory = SessionFactory(
///   setup: [
///     "let app = TaskApp(clock: clock)",
///     #"recorder.record(app.list, name: "list")"#,
///     #"recorder.record(app.edit, name: "edit")"#,
///     "app.bindViews()",
///   ],
///   including: "{ $0 is TaskAppListReactor || $0 is TaskCellReactor || $0 is TaskEditReactor }",
///   imports: ["ReactorExamples"])
/// ```
public struct SessionFactory: Sendable, Hashable {
  /// Statements that build the app and declare `let app`, one per element.
  public var setup: [String]
  /// A closure expression of type `(AnyObject) -> Bool` choosing the reactors the recorder
  /// records, as the registered factory's `including`; `nil` records every reactor (a test
  /// runner running other tests at the same time needs one).
  public var including: String?
  /// A function expression that takes a scripted event (from the session's `script.events`
  /// metadata), such as `app.service.apply`; `nil` when the app takes none.
  public var deliver: String?
  /// The modules the statements need, besides the test framework's and the recorded
  /// reactors' own modules, which a generated test imports unasked.
  public var imports: [String]
  /// The user actions the statements send while they build the app, in order.
  ///
  /// Such as a screen's `viewDidLoad → refresh`. The test does not send again the recorded
  /// ones they match, one by one from the session's first user action, as session mutate
  /// replay does not. `reactor-trace generate-test` runs the registered factory to learn
  /// them.
  public var startUpActions: [StartUpAction]

  /// A factory from its statements.
  public init(
    setup: [String], including: String? = nil, deliver: String? = nil, imports: [String] = [],
    startUpActions: [StartUpAction] = []
  ) {
    self.setup = setup
    self.including = including
    self.deliver = deliver
    self.imports = imports
    self.startUpActions = startUpActions
  }

  /// A user action the factory sends: to which reactor (its session id), with which value.
  public struct StartUpAction: Sendable, Hashable {
    /// The reactor's id in the session.
    public var reactor: Int
    /// The action's recorded value.
    public var value: JSONValue?

    /// The action `value` sent to the reactor with id `reactor`.
    public init(reactor: Int, value: JSONValue?) {
      self.reactor = reactor
      self.value = value
    }
  }
}
