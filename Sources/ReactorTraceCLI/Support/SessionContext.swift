public import ReactorTracing

/// What a registered session factory gets: the clock the replay advances, the session's
/// metadata, and the recorder to name the app's reactors to.
///
/// The recorder records every reactor the factory's app creates; the factory records the
/// reactors the app creates outside every reactor by hand, with the names the session gave
/// them, in the order the session introduced them (`context.recorder.record(app.list, name:
/// "list")`), binds its views, and returns what must stay alive for the run.
@MainActor
public struct SessionContext {
  /// The test clock the replay advances to each recorded time.
  public var clock: any Clock<Duration>
  /// The session header's metadata, such as options the app was built with.
  public var metadata: [String: String]
  /// The replay's recorder.
  public let recorder: SessionRecorder

  /// A context.
  public init(clock: any Clock<Duration>, metadata: [String: String], recorder: SessionRecorder) {
    self.clock = clock
    self.metadata = metadata
    self.recorder = recorder
  }
}
