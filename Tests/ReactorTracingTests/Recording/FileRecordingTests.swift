import Clocks
import ReactorCore
import ReactorExamples
import ReactorTestSupport
import ReactorTracing
import Testing

extension TracingTests {
  @MainActor
  @Suite struct FileRecording {
    /// Runs the same Counter script with a recorder made by `record`, on a test clock.
    private func runCounterScript(
      _ record: (CounterReactor, TraceOptions) throws -> any TraceRecorder
    ) async throws -> any TraceRecorder {
      let clock = TestClock()
      let reactor = CounterReactor(clock: clock, limit: 2)
      let recorder = try record(reactor, TraceOptions(metadata: ["test": "script"], clock: clock))
      for _ in 0..<3 {
        reactor.send(.increase)
        await clock.advance(by: .milliseconds(500))
      }
      reactor.send(.decrease)
      try await recorder.stop()
      return recorder
    }

    @Test func aFileRecordingHoldsExactlyTheEventsAnInMemoryRecordingHolds() async throws {
      try await withExclusiveMainSerialExecutor {
        let directory = try TemporaryDirectory()
        let path = directory.file("counter.jsonl")
        let memory = try await runCounterScript { reactor, options in
          try InMemoryTraceRecorder(recording: reactor, options: options)
        }
        _ = try await runCounterScript { reactor, options in
          try FileTraceRecorder(recording: reactor, to: path, options: options)
        }
        let expected = try #require(memory as? InMemoryTraceRecorder<CounterReactor>).trace
        let fromFile = try Trace(contentsOf: path)
        #expect(fromFile.header == expected.header)
        #expect(fromFile.events == expected.events)
        #expect(fromFile.warnings.isEmpty)
        #expect(try contents(of: path) == expected.serialized)
        #expect(fromFile.header.metadata == ["test": "script"])
      }
    }

    @Test func aFileRecordingWritesTheBytesAnInMemoryRecordingSerializesForEveryKindOfChange()
      async throws
    {
      try await withExclusiveMainSerialExecutor {
        let directory = try TemporaryDirectory()
        let path = directory.file("shapes.jsonl")
        let script: [ShapeReactor.Action] = [
          .append(1), .append(2), .setNote("a \"quoted\" note ✓"), .append(3), .truncate(15),
          .setNote(nil), .append(4), .setNote("x"), .truncate(12), .append(5),
        ]
        let options = TraceOptions(clock: TestClock())
        let memoryReactor = ShapeReactor()
        let memory = try InMemoryTraceRecorder(recording: memoryReactor, options: options)
        for action in script { memoryReactor.send(action) }
        memory.stop()
        let fileReactor = ShapeReactor()
        let file = try FileTraceRecorder(recording: fileReactor, to: path, options: options)
        for action in script { fileReactor.send(action) }
        try await file.stop()
        let kinds = memory.trace.events.compactMap { event -> String? in
          guard case .mutation(let mutation) = event.kind,
            case .diff(let operations) = mutation.state
          else { return nil }
          return operations.map { String(describing: $0).prefix(while: { $0 != "(" }) }.joined()
        }
        #expect(Set(kinds).isSuperset(of: ["append", "truncate", "remove", "set"]))
        #expect(try contents(of: path) == memory.trace.serialized)
        #expect(try Trace(contentsOf: path).events == memory.trace.events)
      }
    }

    @Test func aLongRunOfChangesToALargeArrayIsWrittenAsAnInMemoryRecordingSerializesIt()
      async throws
    {
      try await withExclusiveMainSerialExecutor {
        let directory = try TemporaryDirectory()
        let path = directory.file("large.jsonl")
        // More lines than one piece the writer writes at a time, states hashed several at
        // once, and more distinct actions than are cached when few.
        let script = (0..<1_500).map { step in
          LargeArrayReactor.Action.add(step * 7 % 600, step % 3 == 0 ? -step * 1_001 : step)
        }
        let options = TraceOptions(clock: TestClock())
        let memoryReactor = LargeArrayReactor()
        let memory = try InMemoryTraceRecorder(recording: memoryReactor, options: options)
        for action in script { memoryReactor.send(action) }
        memory.stop()
        let fileReactor = LargeArrayReactor()
        let file = try FileTraceRecorder(recording: fileReactor, to: path, options: options)
        for action in script { fileReactor.send(action) }
        try await file.stop()
        let bytes = try contents(of: path)
        #expect(bytes.count > 256 << 10)
        #expect(bytes == memory.trace.serialized)
      }
    }

    @Test func theReadmeExampleRecordsACounterTraceToAFile() async throws {
      let directory = try TemporaryDirectory()
      let path = directory.file("counter.trace.jsonl")

      let reactor = CounterReactor(clock: ContinuousClock())
      let recorder = try FileTraceRecorder(recording: reactor, to: path)
      reactor.send(.increase)
      try await recorder.stop()

      let trace = try Trace(contentsOf: path)
      #expect(
        trace.events.map(\.summary) == [
          "action 1 increase (sent)",
          "effect 1 started by action 1",
          "mutation 1 setLoading(true) from effect 1 of action 1",
          "end 3 observed, 0 dropped",
        ])
      #expect(trace.header.clock.name == "ContinuousClock")
      #expect(trace.header.clock.origin?.hasSuffix("Z") == true)
    }

    @Test func theSameScriptOnATestClockGivesByteIdenticalFiles() async throws {
      try await withExclusiveMainSerialExecutor {
        let directory = try TemporaryDirectory()
        for name in ["a.jsonl", "b.jsonl"] {
          _ = try await runCounterScript { reactor, options in
            try FileTraceRecorder(recording: reactor, to: directory.file(name), options: options)
          }
        }
        #expect(
          try contents(of: directory.file("a.jsonl")) == contents(of: directory.file("b.jsonl")))
      }
    }

    @Test func flushPutsEveryEventSoFarOnDiskWithoutStopping() async throws {
      let directory = try TemporaryDirectory()
      let path = directory.file("live.jsonl")
      let reactor = OpaqueReactor()
      let recorder = try FileTraceRecorder(
        recording: reactor, to: path, options: TraceOptions(flushInterval: .seconds(3600)))
      reactor.send(.poke(1))
      reactor.send(.poke(2))
      await recorder.flush()

      // What a crash right now would leave behind: every event, and no end line.
      let crashed = try Trace(contentsOf: path)
      #expect(crashed.events.count == 4)
      #expect(crashed.warnings == [.missingEnd(lastLine: 5)])

      reactor.send(.poke(3))
      try await recorder.stop()
      let finished = try Trace(contentsOf: path)
      #expect(finished.events.count == 7)
      #expect(finished.warnings.isEmpty)
    }

    @Test func aBatchIsWrittenAsSoonAsTheThresholdIsReached() async throws {
      let directory = try TemporaryDirectory()
      let path = directory.file("batches.jsonl")
      let reactor = OpaqueReactor()
      let recorder = try FileTraceRecorder(
        recording: reactor, to: path,
        options: TraceOptions(flushInterval: .seconds(3600), flushThreshold: 2))
      for value in 0..<50 { reactor.send(.poke(value)) }
      try await recorder.stop()
      let trace = try Trace(contentsOf: path)
      #expect(trace.events.count == 101)
      #expect(reactor.currentState.pokes == Array(0..<50))
    }

    @Test func aFileThatCannotBeCreatedIsReportedWhenRecordingStarts() throws {
      let reactor = OpaqueReactor()
      #expect(throws: TraceRecordingError.self) {
        try FileTraceRecorder(recording: reactor, to: "/nonexistent-directory/trace.jsonl")
      }
      do {
        _ = try FileTraceRecorder(recording: reactor, to: "/nonexistent-directory/trace.jsonl")
      } catch {
        #expect(
          error.description
            == "cannot create trace file '/nonexistent-directory/trace.jsonl': No such file or directory"
        )
      }
      #expect(reactor.runtime.monitor == nil)
    }

    #if os(Linux)
    @Test func aFailedWriteIsReportedWhenRecordingStops() async throws {
      let reactor = OpaqueReactor()
      let recorder = try FileTraceRecorder(recording: reactor, to: "/dev/full")
      reactor.send(.poke(1))
      await #expect(
        throws: TraceRecordingError.writeFailed(
          path: "/dev/full", reason: "No space left on device")
      ) {
        try await recorder.stop()
      }
    }
    #endif

    @Test func aRollingWindowFileAlwaysHoldsTheLastEventsAsACompleteTrace() async throws {
      let directory = try TemporaryDirectory()
      let path = directory.file("window.jsonl")
      let reactor = OpaqueReactor()
      let recorder = try FileTraceRecorder(
        recording: reactor, to: path, options: TraceOptions(limit: .lastEvents(4)))
      for value in 1...10 { reactor.send(.poke(value)) }
      await recorder.flush()
      let live = try Trace(contentsOf: path)
      #expect(live.header.window == TraceHeader.Window(firstSequence: 17, droppedEvents: 16))
      #expect(live.header.initialState == .description("State(pokes: [1, 2, 3, 4, 5, 6, 7, 8])"))
      #expect(live.events.map(\.sequence) == [17, 18, 19, 20])

      try await recorder.stop()
      let finished = try Trace(contentsOf: path)
      #expect(finished.events.map(\.sequence) == [18, 19, 20, 21])
      #expect(finished.events.last?.summary == "end 20 observed, 17 dropped")
    }
  }
}

/// A reactor whose states change in every way a diff can express: an array that grows and
/// shrinks, and a member that comes and goes.
private final class ShapeReactor: Reactor {
  enum Action: Codable, Sendable {
    case append(Int)
    case truncate(Int)
    case setNote(String?)
  }

  struct State: Codable, Sendable {
    var items = Array(100..<120)
    var note: String?
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    switch mutation {
    case .append(let item): state.items.append(item)
    case .truncate(let count): state.items.removeSubrange(count...)
    case .setNote(let note): state.note = note
    }
    return state
  }
}

/// A reactor whose state is a large array of integers and a count of changes, one element of
/// the array changing at a time.
private final class LargeArrayReactor: Reactor {
  enum Action: Codable, Sendable {
    case add(Int, Int)
  }

  struct State: Codable, Sendable {
    var values = [Int](repeating: 0, count: 600)
    var changes = 0
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    switch mutation {
    case .add(let index, let amount):
      state.values[index] += amount
      state.changes += 1
    }
    return state
  }
}
