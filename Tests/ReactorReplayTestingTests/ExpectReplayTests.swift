import ReactorReplay
import ReactorTestSupport
import ReactorTracing
import Testing

@testable import ReactorReplayTesting

@MainActor
@Suite struct ExpectReplayTests {
  /// A trace of three increases whose last line (the end line) was cut off by a crash.
  private func tornTrace(in directory: AssertionTemporaryDirectory) throws -> String {
    let path = directory.file("torn.trace.jsonl")
    var bytes = try recordAssertionCounterTrace().serialized
    bytes.removeLast(12)
    try AtomicFile.write(bytes, to: path)
    return path
  }

  @Test func aTornTraceFailsWhenStrictNamingTheWarning() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = try tornTrace(in: directory)
      let issues = CapturedIssues()
      withKnownIssue {
        expectReplay(path, reduces: AssertionCounterReactor(), strict: true)
      } matching: {
        issues.capture($0)
      }
      #expect(
        issues.all == [
          "\(path): the replay matched an incomplete trace (strict: true):\n"
            + "\(path): warning: line 8 is incomplete (42 bytes, cut off while writing); read "
            + "every event before it"
        ])
    }
  }

  @Test func aTornTraceThatMatchesIsAWarningWithoutStrict() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = try tornTrace(in: directory)
      // What `expectReplay` records as a warning issue, which does not fail the test (checked
      // here without recording it, so the suite reports no warning).
      let outcome = ReplayCheck.run(
        path, reactorID: nil, reduces: AssertionCounterReactor(), allowingReactorMismatch: false,
        strict: false)
      #expect(outcome.result?.isMatch == true)
      #expect(outcome.failure == nil)
      #expect(
        outcome.warnings == [
          "\(path): warning: line 8 is incomplete (42 bytes, cut off while writing); read every "
            + "event before it"
        ])
    }
  }

  @Test func matchingReplayRecordsNoIssueAndReturnsTheResult() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = directory.file("counter.trace.jsonl")
      try recordAssertionCounterTrace().write(to: path)
      let result = expectReplay(path, reduces: AssertionCounterReactor())
      #expect(result?.isMatch == true)
      #expect(result?.stepsChecked == 3)
    }
  }

  @Test func divergingReduceRecordsOneIssueNamingTheStepAndValue() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = directory.file("counter.trace.jsonl")
      try recordAssertionCounterTrace().write(to: path)
      let issues = CapturedIssues()
      var result: ReplayResult?
      withKnownIssue {
        result = expectReplay(path, reduces: AssertionCounterReactor(step: 2))
      } matching: {
        issues.capture($0)
      }
      #expect(result?.divergence?.mutation == "increaseValue")
      #expect(issues.all.count == 1)
      let comment = try #require(issues.all.first)
      #expect(comment.hasPrefix("\(path): replay diverged after 0 matching mutations, at event 2"))
      #expect(comment.contains("mutation increaseValue (from action increase)"))
      #expect(comment.contains("- AssertionCounterReactor.State(value: 1)"))
      #expect(comment.contains("+ AssertionCounterReactor.State(value: 2)"))
    }
  }

  @Test func unreadableTraceRecordsAnIssueSayingTheReplayFailed() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = directory.file("missing.trace.jsonl")
      let issues = CapturedIssues()
      var result: ReplayResult?
      withKnownIssue {
        result = expectReplay(path, reduces: AssertionCounterReactor())
      } matching: {
        issues.capture($0)
      }
      #expect(result == nil)
      #expect(issues.all.count == 1)
      #expect(issues.all.first?.hasPrefix("\(path): replay failed: ") == true)
    }
  }

  @Test func traceFromAnotherReactorIsReplayedOnlyWhenAllowed() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = directory.file("renamed.trace.jsonl")
      var trace = try recordAssertionCounterTrace()
      trace.header.reactor = "OtherModule.CounterReactor"
      try trace.write(to: path)
      let issues = CapturedIssues()
      withKnownIssue {
        expectReplay(path, reduces: AssertionCounterReactor())
      } matching: {
        issues.capture($0)
      }
      #expect(issues.all.first?.contains("OtherModule.CounterReactor") == true)
      let result = expectReplay(
        path, reduces: AssertionCounterReactor(), allowingReactorMismatch: true)
      #expect(result?.isMatch == true)
    }
  }
}
