import Clocks
import ReactorCore
import Testing

@testable import ReactorTracing

extension TracingTests {
  /// A session recorded to a file: lines written off the main actor, within the queue
  /// budget, a valid session after every flush.
  @MainActor
  @Suite struct SessionFileRecording {
    private func options(queueBudget: Int = 32 << 20) -> TraceOptions {
      TraceOptions(queueBudget: queueBudget, clock: TestClock())
    }

    @Test func eventsWaitInTheQueueUntilTheWriterWritesThemAndEveryFlushLeavesAValidSession()
      async throws
    {
      let directory = try TemporaryDirectory()
      let path = directory.file("held.session.jsonl")
      let recorder = try SessionRecorder(.file(path), options: options())
      recorder.holdWriter()
      let reactor = LargeStateReactor()
      #expect(recorder.record(reactor, name: "large") == 1)
      for index in 0..<5 { reactor.send(.set(index: index, value: index + 1)) }
      // Recorded and queued, but not written: the main actor did not touch the disk.
      #expect(try contents(of: path).filter { $0 == UInt8(ascii: "\n") }.count <= 1)

      recorder.releaseWriter()
      await recorder.flush()
      // Without an end line, as after a crash: every event so far reads back.
      let flushed = try SessionTrace(contentsOf: path)
      #expect(flushed.events.count == 1 + 2 * 5)
      #expect(flushed.warnings == [.missingEnd(lastLine: 12)])

      try await recorder.close()
      let closed = try SessionTrace(contentsOf: path)
      #expect(closed.warnings.isEmpty)
      #expect(closed.events.dropLast() == flushed.events)
      #expect(recorder.session.events.isEmpty)
    }

    @Test func aFileRecordingStaysWithinItsBudgetAndWritesWhatMemoryHolds() async throws {
      let directory = try TemporaryDirectory()
      let path = directory.file("budget.session.jsonl")
      // A few of the large state's mutations (each line holds its ~2,000-byte state or diff).
      let budget = 24_000
      let file = try SessionRecorder(.file(path), options: options(queueBudget: budget))
      let memory = try SessionRecorder(options: options())
      let fileReactor = LargeStateReactor()
      let memoryReactor = LargeStateReactor()
      file.record(fileReactor)
      memory.record(memoryReactor)
      for index in 0..<300 {
        fileReactor.send(.set(index: index % 1000, value: index))
        memoryReactor.send(.set(index: index % 1000, value: index))
      }
      try await file.close()
      memory.stop()
      #expect(file.peakQueuedBytes > 0)
      #expect(file.peakQueuedBytes <= budget)
      #expect(try contents(of: path) == memory.session.serialized)
    }

    @Test func aFileRecordingRefusesTheDropPolicyAndAWindowAsALimit() throws {
      let directory = try TemporaryDirectory()
      #expect(
        throws: TraceRecordingError.invalidOption(
          "a session recorder waits for its writer: a dropped introduction, release or"
            + " mutation would break the lanes that follow it")
      ) {
        try SessionRecorder(
          .file(directory.file("drop.session.jsonl")),
          options: TraceOptions(overflow: .drop))
      }
      #expect(throws: TraceRecordingError.self) {
        try SessionRecorder(.window(FlightWindow()), options: TraceOptions(limit: .lastEvents(5)))
      }
      #expect(throws: TraceRecordingError.self) {
        try SessionRecorder(.window(FlightWindow(events: 0)))
      }
      #expect(throws: TraceRecordingError.cannotCreate(path: "/", reason: "Is a directory")) {
        try SessionRecorder(.file("/"))
      }
    }
  }
}
