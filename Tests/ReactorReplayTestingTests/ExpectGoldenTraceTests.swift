import Foundation
import ReactorReplay
import ReactorReplayTesting
import ReactorTestSupport
import ReactorTracing
import Testing

@MainActor
@Suite struct ExpectGoldenTraceTests {
  @Test func firstRunRecordsTheFileAndFailsThenTheNextRunVerifies() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = directory.file("golden.trace.jsonl")
      let issues = CapturedIssues()
      var outcome: GoldenTrace.Outcome?
      await withKnownIssue {
        outcome = await expectGoldenTrace(path, isRecording: false) {
          try recordAssertionCounterTrace()
        }
      } matching: {
        issues.capture($0)
      }
      #expect(outcome == .recorded)
      #expect(FileManager.default.fileExists(atPath: path))
      #expect(issues.all.count == 1)
      #expect(issues.all.first?.contains("recorded the golden trace") == true)
      #expect(issues.all.first?.contains("the file was missing") == true)
      // The user set nothing, so nothing tells them to unset it.
      #expect(issues.all.first?.contains("without") == false)
      #expect(issues.all.first?.hasSuffix("run the test again to verify it") == true)

      let verified = await expectGoldenTrace(path, isRecording: false) {
        try recordAssertionCounterTrace()
      }
      #expect(verified == .matched)
    }
  }

  @Test func askingToReRecordOverwritesTheFileAndFails() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = directory.file("golden.trace.jsonl")
      try recordAssertionCounterTrace(count: 1).write(to: path)
      let issues = CapturedIssues()
      await withKnownIssue {
        await expectGoldenTrace(path, isRecording: true) { try recordAssertionCounterTrace() }
      } matching: {
        issues.capture($0)
      }
      #expect(
        issues.all.first?.hasSuffix(
          "because the test passes isRecording: true; a recording run always fails, so remove "
            + "isRecording: true and run the test again to verify it") == true)
      #expect(try Trace(contentsOf: path) == recordAssertionCounterTrace())
    }
  }

  @Test func mismatchReportsTheSeqBothEventsAndTheStateDiff() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = directory.file("golden.trace.jsonl")
      try recordAssertionCounterTrace().write(to: path)
      let issues = CapturedIssues()
      var outcome: GoldenTrace.Outcome?
      await withKnownIssue {
        outcome = await expectGoldenTrace(path, isRecording: false) {
          try recordAssertionCounterTrace(step: 2)
        }
      } matching: {
        issues.capture($0)
      }
      guard case .diverged(let divergence) = outcome else {
        Issue.record("expected a divergence, got \(String(describing: outcome))")
        return
      }
      #expect(issues.all.count == 1)
      let comment = try #require(issues.all.first)
      #expect(
        comment.hasPrefix(
          "\(path): the fresh recording differs from the golden trace at seq "
            + "\(divergence.sequence): "))
      #expect(comment.contains("\ngolden: {"))
      #expect(comment.contains("\nfresh:  {"))
      #expect(comment.contains("state (golden → fresh):"))
      #expect(comment.contains("value"))
      #expect(comment.hasSuffix(GoldenTrace.howToRerecord))
      #expect(comment.contains("REACTOR_TRACE_RECORD=1 swift test"))
      #expect(comment.contains("reactor-trace rerecord TRACE --in-place"))
    }
  }

  @Test func anErrorWhileRecordingIsReported() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = directory.file("golden.trace.jsonl")
      let issues = CapturedIssues()
      await withKnownIssue {
        await expectGoldenTrace(path) { throw CancellationError() }
      } matching: {
        issues.capture($0)
      }
      #expect(issues.all.first?.contains("the golden trace could not be checked") == true)
      #expect(!FileManager.default.fileExists(atPath: path))
    }
  }
}
