import Clocks
import Foundation
import ReactorCore
import ReactorExamples
import ReactorTestSupport
import ReactorTracing
import Testing

extension TracingTests {
  /// The recorder's threads carry names the system shows (debuggers, profilers, `top -H`,
  /// `/proc/PID/task/TID/comm`): what `reactor-trace-live-example` tells its threads apart by
  /// to report what recording costs an app (issue 44).
  @MainActor
  @Suite struct RecorderThreadNames {
    /// The names of this process's threads, as Linux shows them.
    private func threadNames() -> Set<String> {
      let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
      return Set(
        tasks.compactMap { task in
          (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .newlines)
        })
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task")))
    func aFileRecordersWriterThreadIsNamedTraceWriter() async throws {
      try await withExclusiveMainSerialExecutor {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let reactor = CounterReactor(clock: clock, limit: 2)
        let recorder = try FileTraceRecorder(
          recording: reactor, to: directory.file("counter.jsonl"),
          options: TraceOptions(clock: clock))
        reactor.send(.decrease)
        // Once it has written what was queued, the thread has named itself.
        await recorder.flush()
        #expect(threadNames().contains("trace writer"))
        try await recorder.stop()
      }
    }
  }
}
