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

  /// A factory from its statements.
  public init(
    setup: [String], including: String? = nil, deliver: String? = nil, imports: [String] = []
  ) {
    self.setup = setup
    self.including = including
    self.deliver = deliver
    self.imports = imports
  }
}
