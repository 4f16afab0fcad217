/// How a runtime scenario is recorded while it runs.
enum TracingMode: String, CaseIterable, Sendable {
  /// No recorder attached.
  case untraced
  /// An `InMemoryTraceRecorder` attached; timed until `stop()` returns.
  case memory
  /// A `FileTraceRecorder` attached; timed until `stop()` returns with every event on disk.
  case file
}
