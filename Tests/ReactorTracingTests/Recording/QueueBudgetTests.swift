import Clocks
import ReactorCore
import ReactorTestSupport
import Testing

@testable import ReactorTracing

extension TracingTests {
  @MainActor
  @Suite struct QueueBudget {
    /// A budget that holds a few of `LargeStateReactor`'s mutations: its state's canonical
    /// JSON takes about 2,000 bytes, estimated at six times that in the queue.
    private static let smallBudget = 48_000

    private func options(_ overflow: TraceOverflowPolicy) -> TraceOptions {
      TraceOptions(queueBudget: Self.smallBudget, overflow: overflow, clock: TestClock())
    }

    /// Records `sends` actions of `LargeStateReactor` to a file and to memory with the same
    /// options; the action for `index` sets the element `element(index)`.
    private static func recordToFileAndMemory(
      _ sends: Int, options: TraceOptions, path: String, element: (Int) -> Int
    ) async throws -> (file: FileTraceRecorder<LargeStateReactor>, memory: Trace) {
      let fileReactor = LargeStateReactor()
      let recorder = try FileTraceRecorder(recording: fileReactor, to: path, options: options)
      let memoryReactor = LargeStateReactor()
      let memory = try InMemoryTraceRecorder(recording: memoryReactor, options: options)
      for index in 0..<sends {
        fileReactor.send(.set(index: element(index), value: index))
        memoryReactor.send(.set(index: element(index), value: index))
      }
      try await recorder.stop()
      memory.stop()
      return (recorder, memory.trace)
    }

    @Test func waitingLosesNoEventOnNormalShutdownAndWritesWhatMemoryWrites() async throws {
      let directory = try TemporaryDirectory()
      let path = directory.file("wait.trace.jsonl")
      let sends = 300
      let (recorder, memory) = try await Self.recordToFileAndMemory(
        sends, options: options(.wait), path: path, element: { $0 % 1000 })

      #expect(recorder.droppedEventCount == 0)
      #expect(recorder.observedEventCount == 2 * sends)
      #expect(recorder.peakQueuedBytes <= Self.smallBudget)
      let trace = try Trace(contentsOf: path)
      #expect(trace.warnings.isEmpty)
      #expect(trace.header.version == TraceHeader.currentVersion)
      #expect(trace.events.count == 2 * sends + 1)
      #expect(try contents(of: path) == memory.serialized)
    }

    @Test func aReactorThatHashesStatesWhileItWaitsForRoomWritesWhatMemoryWrites()
      async throws
    {
      // Room for about forty states: the writer takes them in batches large enough for jobs
      // of sixteen, which the reactor, waiting for room, hashes (``StateHashJobs``).
      let directory = try TemporaryDirectory()
      let path = directory.file("help.trace.jsonl")
      let sends = 1_000
      let (recorder, memory) = try await Self.recordToFileAndMemory(
        sends, options: TraceOptions(queueBudget: 500_000, overflow: .wait, clock: TestClock()),
        path: path, element: { $0 * 7 % 1000 })

      #expect(recorder.droppedEventCount == 0)
      let trace = try Trace(contentsOf: path)
      #expect(trace.warnings.isEmpty)
      #expect(trace.events.count == 2 * sends + 1)
      #expect(try contents(of: path) == memory.serialized)
    }

    /// Records `LargeStateReactor` with the drop policy and a small budget: 50 actions while
    /// the writer is held back, so that most are dropped, then one more after a flush.
    private static func recordDropping(
      to path: String
    ) async throws -> FileTraceRecorder<LargeStateReactor> {
      let reactor = LargeStateReactor()
      let recorder = try FileTraceRecorder(
        recording: reactor, to: path,
        options: TraceOptions(queueBudget: smallBudget, overflow: .drop, clock: TestClock()))
      recorder.writer.hold()
      for index in 0..<50 { reactor.send(.set(index: index, value: index + 1)) }
      #expect(recorder.peakQueuedBytes <= Self.smallBudget)
      recorder.writer.release()
      await recorder.flush()
      reactor.send(.set(index: 999, value: 7))
      try await recorder.stop()
      return recorder
    }

    /// A trace with a gap, for the schema's tests.
    static func recordDroppingTrace() async throws -> Trace {
      let directory = try TemporaryDirectory()
      let path = directory.file("drop.trace.jsonl")
      _ = try await recordDropping(to: path)
      return try Trace(contentsOf: path)
    }

    @Test func droppingRecordsAGapWithHowManyEventsWereDroppedAndNeverExceedsTheBudget()
      async throws
    {
      let directory = try TemporaryDirectory()
      let path = directory.file("drop.trace.jsonl")
      let recorder = try await Self.recordDropping(to: path)

      let dropped = recorder.droppedEventCount
      #expect(dropped > 0)
      #expect(recorder.observedEventCount == 2 * 51)
      let trace = try Trace(contentsOf: path)
      #expect(trace.header.version == TraceFormatVersion(major: 1, minor: 2))
      let gaps = trace.events.compactMap { event -> Int? in
        guard case .gap(let gap) = event.kind else { return nil }
        return gap.droppedEvents
      }
      #expect(gaps == [dropped])
      let kept = trace.events.filter {
        switch $0.kind {
        case .action, .mutation: true
        default: false
        }
      }
      #expect(kept.count + dropped == recorder.observedEventCount)
      #expect(trace.events.map(\.sequence) == Array(1...trace.events.count))
      guard case .end(let end)? = trace.events.last?.kind else {
        Issue.record("the trace does not end with its end line")
        return
      }
      #expect(end.droppedEvents == dropped)
      let gapLine = try #require(trace.events.firstIndex { $0.summary.hasPrefix("gap") }) + 2
      #expect(trace.warnings == [.eventsDropped(count: dropped, line: gapLine)])
      // The state after the gap is stored against the last one recorded, and rebuilds.
      let reader = try TraceReader(path: path)
      while try reader.next() != nil {}
      guard case .json(let state) = reader.currentState,
        case .array(let values)? = state["values"]
      else {
        Issue.record("the final state is not rebuilt")
        return
      }
      #expect(values[999] == .int(7))
    }

    @Test func theQueuedBytesNeverExceedTheBudgetWhateverThePolicy() async throws {
      for overflow in [TraceOverflowPolicy.wait, .drop] {
        let directory = try TemporaryDirectory()
        let reactor = LargeStateReactor()
        let recorder = try FileTraceRecorder(
          recording: reactor, to: directory.file("budget.jsonl"), options: options(overflow))
        for index in 0..<300 { reactor.send(.set(index: index, value: 1)) }
        try await recorder.stop()
        #expect(recorder.peakQueuedBytes > 0)
        #expect(recorder.peakQueuedBytes <= Self.smallBudget)
      }
    }

    @Test func aQueuedStateCountsSixTimesItsOwnCanonicalJSONLessTheStorageItShares() throws {
      var state = SharedTextReactor.State()
      let previous = state
      state.value = 12
      let json = try JSONValueEncoder().encode(state).serialized
      let notes = try JSONValueEncoder().encode(state.notes).serialized
      let own = json.withUnsafeBufferPointer {
        QueuedStateMemory.ownBytes(of: state, after: previous, json: $0)
      }
      // `{"notes":[…],"value":12}`: the notes are the previous state's storage.
      #expect(own == json.count - notes.count)
      #expect(own == #"{"notes":,"value":12}"#.utf8.count)
      // A copy that changed the notes holds its own.
      state.notes[0] = "changed"
      let copied = json.withUnsafeBufferPointer {
        QueuedStateMemory.ownBytes(of: state, after: previous, json: $0)
      }
      #expect(copied == json.count)
      // So does an array `reduce` copied to change one element.
      var large = LargeStateReactor.State()
      let before = large
      large.values[3] = 1
      let largeJSON = try JSONValueEncoder().encode(large).serialized
      #expect(
        largeJSON.withUnsafeBufferPointer {
          QueuedStateMemory.ownBytes(of: large, after: before, json: $0)
        } == largeJSON.count)
    }

    @Test func sharedTextsHoldingQuotesAndBackslashesAnywhereAreLeftOut() throws {
      // Texts of every length around the eight bytes the measure passes at once, with an
      // escaped quote or backslash at each place: the member still ends where it ends.
      for length in 0..<20 {
        var state = SharedTextReactor.State()
        state.notes = (0...length).flatMap { place in
          ["\"", "\\", "\\\""].map { special in
            var text = String(repeating: "x", count: length)
            text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: place))
            return text
          }
        }
        let previous = state
        state.value = 12
        let json = try JSONValueEncoder().encode(state).serialized
        let own = json.withUnsafeBufferPointer {
          QueuedStateMemory.ownBytes(of: state, after: previous, json: $0)
        }
        #expect(own == #"{"notes":,"value":12}"#.utf8.count, "length \(length)")
      }
    }

    @Test func mutationsOfAStateSharingItsStorageFitTheBudgetAtWhatTheyHold() async throws {
      // A budget that holds 8 of these states counted at six times their whole canonical
      // JSON (about 20 KB each), as every queued state was before; 1,000 mutations queued
      // while the writer is held back, with the drop policy.
      let json = try JSONValueEncoder().encode(SharedTextReactor.State()).serialized
      let budget = 8 * 6 * json.count
      let directory = try TemporaryDirectory()
      let path = directory.file("shared.trace.jsonl")
      let reactor = SharedTextReactor()
      let recorder = try FileTraceRecorder(
        recording: reactor, to: path,
        options: TraceOptions(queueBudget: budget, overflow: .drop, clock: TestClock()))
      // Two mutations taken by the writer: it measures what the second holds of its own.
      reactor.send(.increase)
      reactor.send(.increase)
      await recorder.flush()
      recorder.writer.hold()
      for _ in 0..<1_000 { reactor.send(.increase) }
      #expect(recorder.droppedEventCount == 0)
      #expect(recorder.peakQueuedBytes <= budget)
      recorder.writer.release()
      try await recorder.stop()

      #expect(recorder.droppedEventCount == 0)
      let trace = try Trace(contentsOf: path)
      #expect(trace.warnings.isEmpty)
      #expect(trace.events.count == 2 * 1_002 + 1)
    }

    @Test func aBudgetBelowOneByteIsRefused() throws {
      let directory = try TemporaryDirectory()
      #expect(throws: TraceRecordingError.self) {
        try FileTraceRecorder(
          recording: LargeStateReactor(), to: directory.file("x.jsonl"),
          options: TraceOptions(queueBudget: 0))
      }
    }
  }
}
