import Clocks
import Foundation
import ReactorCore
import ReactorExamples
import ReactorReplay
import ReactorReplayTesting
import ReactorTestSupport
import ReactorTracing
import Testing

/// The repository's root, found from this file's path.
private let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

@Suite struct ReadmeExample {
  @MainActor @Test func counterStillReducesItsRecordedRun() {
    expectReplay(repositoryRoot + "/Traces/counter.trace.jsonl", reduces: CounterReactor())
  }

  /// The README's recording snippet, on a test clock that the test advances instead of
  /// waiting 500 ms.
  @MainActor @Test func theReadmeRecordingSnippetRecordsTheWholeCounterRun() async throws {
    try await withExclusiveMainSerialExecutor {
      let directory = try AssertionTemporaryDirectory()
      defer { directory.remove() }
      let path = directory.file("counter.trace.jsonl")
      let clock = TestClock()

      let reactor = CounterReactor(clock: clock)
      let recorder = try FileTraceRecorder(
        recording: reactor, to: path, options: TraceOptions(clock: clock))
      reactor.send(.increase)
      let waiting = Task { await recorder.waitUntilIdle() }  // the README's line
      await clock.advance(by: .milliseconds(500))
      await waiting.value
      try await recorder.stop()

      let reader = try TraceReader(path: path)
      var kinds: [String] = []
      while let event = try reader.next() {
        kinds.append(String("\(event.kind)".prefix { $0 != "(" }))
      }
      #expect(reader.warnings.isEmpty)
      #expect(
        kinds == [
          "action", "effectStarted", "mutation", "mutation", "mutation", "effectEnded", "end",
        ])
      #expect(expectReplay(path, reduces: CounterReactor(), strict: true)?.stepsChecked == 3)
    }
  }

  /// What the snippet recorded before it waited: a run cut short, and readers say so.
  @MainActor @Test func stoppingWithTheEffectRunningRecordsItInTheEndLine() async throws {
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = CounterReactor(clock: clock)
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(clock: clock))
      reactor.send(.increase)
      recorder.stop()
      guard case .end(let end)? = recorder.events.last?.kind else {
        Issue.record("no end line")
        return
      }
      #expect(end.runningEffects == [.init(effect: 1, action: 1, name: "increase")])
      let reader = try TraceReader(bytes: recorder.trace.serialized)
      while try reader.next() != nil {}
      #expect(
        reader.warnings.map(\.description) == [
          "line 5: the run was not finished: the trace ends at 0 s with 1 effect still running "
            + "(effect 1 'increase' of action 1)"
        ])
    }
  }
}
