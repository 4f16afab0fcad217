import Clocks
import Foundation
import ReactorCore
import ReactorTestSupport
import ReactorTracing
import Testing

/// The repository's root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().path

extension TracingTests {
  /// The fixture traces in `Tests/Fixtures/` are recorded from scripted runs of the test
  /// reactors. (The examples' traces in `Traces/` are checked by the CLI tests, which
  /// re-record them with `reactor-trace record`.)
  ///
  /// Set `REACTOR_TRACE_RECORD=1` to re-record them on purpose.
  @MainActor
  @Suite struct SampleTraces {
    private func assertMatchesSample(
      _ trace: Trace, named name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
      let path = repositoryRoot + "/Tests/Fixtures/" + name
      let recorded = trace.serialized
      let isRecording = ProcessInfo.processInfo.environment["REACTOR_TRACE_RECORD"] == "1"
      guard !isRecording, FileManager.default.fileExists(atPath: path) else {
        try trace.write(to: path)
        Issue.record(
          "Recorded \(name); run the tests again without REACTOR_TRACE_RECORD",
          sourceLocation: sourceLocation)
        return
      }
      let committed = try contents(of: path)
      #expect(
        committed == recorded,
        "Tests/Fixtures/\(name) is out of date; re-record with REACTOR_TRACE_RECORD=1",
        sourceLocation: sourceLocation)
      #expect(try Trace(contentsOf: path) == Trace(bytes: recorded), sourceLocation: sourceLocation)
    }

    @Test func feedSampleIsUpToDate() async throws {
      try await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = FeedReactor(clock: clock)
        let recorder = try InMemoryTraceRecorder(
          recording: reactor,
          options: TraceOptions(
            metadata: ["script": "overlapping loads, a cancelled search, a failure, pushes"],
            clock: clock))
        reactor.send(.load("slow", delay: 300))
        reactor.send(.load("fast", delay: 100))
        await clock.advance(by: .milliseconds(50))
        reactor.send(.search("re"))
        await clock.advance(by: .milliseconds(100))
        reactor.send(.search("reactor"))
        reactor.pushes.accept("new follower")
        await clock.advance(by: .milliseconds(300))
        reactor.taps.accept(.fail)
        await clock.advance(by: .milliseconds(100))
        recorder.stop()
        try assertMatchesSample(recorder.trace, named: "feed.trace.jsonl")
      }
    }
  }
}
