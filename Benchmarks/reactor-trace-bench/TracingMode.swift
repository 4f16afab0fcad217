/// How a runtime scenario is recorded while it runs.
enum TracingMode: String, CaseIterable, Sendable {
  /// No recorder attached.
  case untraced
  /// An `InMemoryTraceRecorder` attached; timed until `stop()` returns.
  case memory
  /// A `FileTraceRecorder` attached; timed until `stop()` returns with every event on disk.
  case file
  /// A `FileTraceRecorder` with the drop policy: the reactor never waits for the writer,
  /// events that do not fit the queue's budget are dropped and counted.
  case fileDropping = "file-drop"
}
