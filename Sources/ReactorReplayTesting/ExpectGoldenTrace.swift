public import ReactorReplay
public import ReactorTracing
public import Testing

/// Records a fresh trace and compares it with the golden trace file at `path`, recording a
/// Swift Testing issue when they differ; writes the file instead when it is missing or
/// `REACTOR_TRACE_RECORD=1` is set.
///
/// ```swift
/// @MainActor @Test func counterRunMatchesItsGoldenTrace() async {
///   await expectGoldenTrace(goldenPath) { try await recordCounterRun() }
/// }
/// ```
///
/// Like argument-parser's `assertSnapshot`, a run that records fails: it records an issue
/// saying that it wrote the file, so a first run, or a run left with the variable set, can't
/// pass silently. Run the test again to verify against the new file.
///
/// On a difference the issue's comment gives the first differing `seq` and why it differs,
/// both events as JSON lines (golden, then fresh), and a path-by-path diff of the states.
/// Comparison uses ``GoldenTrace/verifyOrRecord(path:isRecording:record:)``, so times are
/// not compared. An error thrown by `record`, or a file that cannot be read or written, is
/// recorded as an issue too.
///
/// - Parameters:
///   - path: The golden trace file; find it relative to `#filePath`.
///   - isRecording: Whether to re-record; by default, `nil`: whether `REACTOR_TRACE_RECORD`
///     is `1`.
///   - sourceLocation: Where to report the issue; by default, the call.
///   - record: Makes the fresh recording, for example with an `InMemoryTraceRecorder`.
/// - Returns: What happened, or `nil` when the trace could not be checked.
@MainActor
@discardableResult
public func expectGoldenTrace(
  _ path: String,
  isRecording: Bool? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  record: () async throws -> Trace
) async -> GoldenTrace.Outcome? {
  let (outcome, failure) = await GoldenCheck.run(path, isRecording: isRecording, record: record)
  if let failure {
    Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
  }
  return outcome
}
