import Foundation
public import ReactorTracing

/// Record-or-verify for golden trace files in tests.
///
/// ```swift
/// let outcome = try await GoldenTrace.verifyOrRecord(path: goldenPath) {
///   try await recordCounterRun()
/// }
/// #expect(outcome.failureMessage == nil)
/// ```
///
/// The first run, or any run with `REACTOR_TRACE_RECORD=1` in the environment, writes the
/// fresh recording to the file; later runs compare a fresh recording with it using
/// ``TraceDiff``.
public enum GoldenTrace {
  /// The environment variable that makes ``verifyOrRecord(path:isRecording:record:)``
  /// re-record.
  public static let recordVariable = "REACTOR_TRACE_RECORD"

  /// What ``verifyOrRecord(path:isRecording:record:)`` did.
  public enum Outcome: Sendable, Hashable {
    /// The file was missing or re-recording was asked for; the fresh recording was written.
    case recorded
    /// The fresh recording equals the golden file.
    case matched
    /// The fresh recording differs from the golden file.
    case diverged(TraceDivergence)

    /// A report for a test failure, or `nil` unless the recording diverged.
    public var failureMessage: String? {
      guard case .diverged(let divergence) = self else { return nil }
      return "the recording differs from the golden trace: \(divergence)\n"
        + GoldenTrace.howToRerecord
    }
  }

  /// How to accept a fresh recording as the new golden trace, for failure messages.
  public static let howToRerecord =
    "If the change is intended, re-record the golden trace: run the test once with "
    + "\(recordVariable)=1 in the environment (swift test: \(recordVariable)=1 swift test "
    + "--filter <test>) and commit the file; a trace of a registered reactor can also be "
    + "re-recorded with `reactor-trace rerecord TRACE --in-place`."

  /// Records a fresh trace, on the main actor, and writes it to `path` when the file is missing or recording is
  /// asked for, otherwise compares it with the file.
  /// - Parameters:
  ///   - path: The golden trace file.
  ///   - isRecording: Whether to re-record; by default, `nil`: whether `REACTOR_TRACE_RECORD` is
  ///     `1`.
  ///   - record: Makes the fresh recording.
  /// - Returns: What happened.
  /// - Throws: What `record` throws, an `AtomicFileError` when the file cannot be written, or
  ///   a `TraceReadError` when either trace cannot be read.
  @MainActor
  public static func verifyOrRecord(
    path: String,
    isRecording: Bool? = nil,
    record: () async throws -> Trace
  ) async throws -> Outcome {
    let fresh = try await record()
    let isRecording =
      isRecording ?? (ProcessInfo.processInfo.environment[recordVariable] == "1")
    if isRecording || !FileManager.default.fileExists(atPath: path) {
      try fresh.write(to: path)
      return .recorded
    }
    let golden = try SessionReader(path: path)
    let recorded = try SessionReader(bytes: fresh.serialized, name: "fresh recording")
    if let divergence = try TraceDiff.firstDivergence(golden, recorded) {
      return .diverged(divergence)
    }
    return .matched
  }
}
