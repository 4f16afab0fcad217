/// How a generated test builds its subject (``TestSubject``): one reactor, or an app.
public enum TestFactory: Sendable, Hashable {
  /// Builds one reactor, which the test drives alone.
  case reactor(ReactorFactory)
  /// Builds an app, whose reactors the test drives through a `SessionRecorder`.
  case app(SessionFactory)
}
