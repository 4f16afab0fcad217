import Clocks
import Foundation
import ReactorCore
import ReactorReplay
import ReactorTestSupport
import ReactorTracing
import Testing

@MainActor
@Suite struct ReduceReplayTests {
  @Test func aGapIsReportedAsDroppedEventsAndReplayResumesAfterItWithoutDiverging()
    async throws
  {
    try await withExclusiveMainSerialExecutor {
      // Drops the decrease, its setLoading(true) and decreaseValue (events 7 to 9).
      let trace = try droppingEvents(at: 6..<9, from: try await recordCounterTrace())
      let result = try replay(trace, through: ReplayCounterReactor(clock: ContinuousClock()))
      #expect(result.divergence == nil)
      #expect(result.droppedEventCount == 3)
      #expect(!result.isComplete)
      // Nine mutations, two dropped, the one after the gap not checked.
      #expect(result.stepsChecked == 6)
      // Without the gap line, the same events read as a divergence.
      let withoutGap = Trace(
        header: trace.header,
        events: trace.events.filter {
          if case .gap = $0.kind { return false }
          return true
        })
      #expect(
        try replay(withoutGap, through: ReplayCounterReactor(clock: ContinuousClock()))
          .divergence != nil)
    }
  }

  @Test func aTraceLongerThanTheReadersBatchesFailsAtItsFirstBadLineOrStopsAtItsDivergence()
    async throws
  {
    try await withExclusiveMainSerialExecutor {
      // Lines are read on a thread of their own, 128 at a time, two batches ahead.
      let clock = TestClock()
      let reactor = ReplayCounterReactor(clock: clock)
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(clock: clock))
      for _ in 0..<200 { reactor.send(.decrease) }
      recorder.stop()
      var lines = String(decoding: recorder.trace.serialized, as: UTF8.self)
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      #expect(lines.count > 800)
      let path = NSTemporaryDirectory() + "replay-\(UUID().uuidString).trace.jsonl"
      defer { try? FileManager.default.removeItem(atPath: path) }
      @MainActor func replayed() throws -> ReplayResult {
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return try ReduceReplay.run(path: path, through: ReplayCounterReactor(clock: clock))
      }
      #expect(try replayed().stepsChecked == 600)
      // A malformed line in the fifth batch: the lines before it replay, then it fails at
      // its line, as a reader on the replay's own thread fails.
      let bad = 700
      lines[bad - 1] = "{"
      do {
        _ = try replayed()
        Issue.record("a malformed line replayed")
      } catch {
        guard case .trace(.malformedLine(_, let line, _))? = error as? ReplayError else {
          Issue.record("\(error)")
          return
        }
        #expect(line == bad)
      }
      // A divergence in the first batch stops the replay there: the bad line is not reached.
      let first = try #require(
        lines.firstIndex {
          $0.contains(#""kind":"mutation""#) && $0.contains(#""decreaseValue":{}"#)
        })
      lines[first] = lines[first].replacingOccurrences(
        of: #""decreaseValue":{}"#, with: #""increaseValue":{}"#)
      let result = try replayed()
      #expect(result.divergence?.line == first + 1)
    }
  }

  @Test func replayThroughTheSameReduceMatchesEveryRecordedState() async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try await recordCounterTrace()
      let result = try replay(trace, through: ReplayCounterReactor(clock: ContinuousClock()))
      #expect(result.divergence == nil)
      #expect(result.failureMessage == nil)
      #expect(result.stepsChecked == 9)
    }
  }

  @Test func changedReduceDivergesAtTheFirstIncreaseWithADiffNamingTheValue() async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try await recordCounterTrace()
      let result = try replay(
        trace, through: ReplayCounterReactor(clock: ContinuousClock(), step: 2))
      let divergence = try #require(result.divergence)
      #expect(divergence.sequence == 4)
      #expect(divergence.line == 5)
      #expect(divergence.mutation == "increaseValue")
      #expect(divergence.action == "increase")
      #expect(result.stepsChecked == 1)
      let diff = try #require(divergence.diff)
      #expect(diff.contains("-   value: 1"))
      #expect(diff.contains("+   value: 2"))
      #expect(result.failureMessage?.contains("event 4 (line 5): mutation increaseValue") == true)
    }
  }

  @Test func aRecordedHashThatMatchesNoStateFailsAtItsLine() async throws {
    try await withExclusiveMainSerialExecutor {
      var trace = try await recordCounterTrace()
      let index = try #require(
        trace.events.firstIndex {
          if case .mutation(let mutation) = $0.kind {
            mutation.label == "increaseValue"
          } else {
            false
          }
        })
      guard case .mutation(var mutation) = trace.events[index].kind else { return }
      let recorded = mutation.stateHash
      mutation.stateHash = TraceHash(recorded.value ^ 1)
      trace.events[index].kind = .mutation(mutation)
      do throws(ReplayError) {
        _ = try replay(trace, through: ReplayCounterReactor(clock: ContinuousClock()))
        Issue.record("the replay did not fail")
      } catch {
        guard
          case .trace(.stateMismatch(_, let line, let sequence, let expected, let actual)) = error
        else {
          Issue.record("unexpected error \(error)")
          return
        }
        #expect(line == index + 2)
        #expect(sequence == trace.events[index].sequence)
        #expect(expected == mutation.stateHash)
        #expect(actual == recorded)
      }
    }
  }

  @Test func traceFromAnotherReactorIsRefusedUnlessAllowed() async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try await recordCounterTrace()
      var renamed = trace
      renamed.header.reactor = "OtherModule.CounterReactor"
      let reactor = ReplayCounterReactor(clock: ContinuousClock())
      #expect(throws: ReplayError.self) { try replay(renamed, through: reactor) }
      let result = try replay(renamed, through: reactor, allowingReactorMismatch: true)
      #expect(result.divergence == nil)
    }
  }

  @Test func anAddedCaseAndAnAddedStateFieldReplayWithTheChangesNoted() async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try await recordCounterTrace()
      let result = try replay(
        trace, through: ReplayResettableCounterReactor(), allowingReactorMismatch: true)
      #expect(result.divergence == nil)
      #expect(result.stepsChecked == 9)
      #expect(
        result.schemaChanges.map(\.description) == [
          "Mutation: case 'reset' was added", "State: field 'resetCount' was added",
        ])
    }
  }

  @Test func anAddedStateFieldIsComparedOnlyOnTheFieldsTheTraceKnows() async throws {
    try await withExclusiveMainSerialExecutor {
      // The replayed states carry `resetCount`; a changed known field still diverges.
      let trace = try await recordCounterTrace()
      let edited = try editing(
        trace, replacing: #""increaseValue":{}}"#, with: #""decreaseValue":{}}"#)
      let result = try ReduceReplay.run(
        TraceReader(bytes: edited, verifyingStates: false),
        through: ReplayResettableCounterReactor(), allowingReactorMismatch: true)
      let divergence = try #require(result.divergence)
      #expect(divergence.sequence == 4)
      #expect(divergence.diff?.contains("value: 1 → -1") == true)
      #expect(divergence.diff?.contains("resetCount") == false)
    }
  }

  @Test func aRenamedCaseTheTraceUsesFailsAtItsFirstEventNamingTheChange() async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try await recordCounterTrace()
      #expect(
        throws: ReplayError.changedCase(
          line: 5, sequence: 4, event: "mutation increaseValue",
          changes: [SchemaChange(path: "Mutation", kind: .caseRemoved("increaseValue"))],
          addedCases: ["incrementValue"])
      ) {
        try replay(trace, through: ReplayRenamedCounterReactor(), allowingReactorMismatch: true)
      }
    }
  }

  @Test func aRecordedFieldOfAnotherTypeFailsFromTheHeader() async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try await recordCounterTrace()
      do throws(ReplayError) {
        _ = try replay(
          trace, through: ReplayRetypedCounterReactor(), allowingReactorMismatch: true)
        Issue.record("the replay did not fail")
      } catch {
        #expect(
          error.description
            == "the trace's types are not compatible with the current ones, from line 1 on:\n"
            + "  State.value: type changed from Int to Double")
      }
    }
  }

  @Test func redactedValuesAreNotCompared() async throws {
    try await withExclusiveMainSerialExecutor {
      let reactor = ReplayAccountReactor()
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(redactions: ["*.**.token"]))
      reactor.send(.login(user: "ada"))
      reactor.send(.login(user: "bob"))
      recorder.stop()
      let trace = recorder.trace
      #expect(String(decoding: trace.serialized, as: UTF8.self).contains("<redacted>"))
      let result = try replay(trace, through: ReplayAccountReactor())
      #expect(result.divergence == nil)
      #expect(result.stepsChecked == 2)
    }
  }

  @Test func assertReplayReturnsNilForAMatchingFileAndAReportOtherwise() async throws {
    try await withExclusiveMainSerialExecutor {
      let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("replay-\(UUID().uuidString).trace.jsonl").path
      defer { try? FileManager.default.removeItem(atPath: path) }
      try await recordCounterTrace().write(to: path)
      #expect(assertReplay(path, reduces: ReplayCounterReactor(clock: ContinuousClock())) == nil)
      let message = assertReplay(
        path, reduces: ReplayCounterReactor(clock: ContinuousClock(), step: 3))
      #expect(message?.contains("increaseValue") == true)
      #expect(
        assertReplay(path + ".missing", reduces: ReplayAccountReactor())?
          .hasPrefix("replay failed: cannot open") == true)
    }
  }
}

@MainActor
@Suite struct MutateReplayTests {
  @Test func aTraceWithAGapIsReplayedUpToTheGapAndReportsTheDroppedEvents() async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try droppingEvents(at: 6..<9, from: try await recordCounterTrace())
      let clock = TestClock()
      let result = try await MutateReplay.run(
        trace, through: ReplayCounterReactor(clock: clock), clock: clock,
        advance: { await clock.advance(by: $0) })
      #expect(result.divergence == nil)
      #expect(result.droppedEventCount == 3)
      #expect(result.stepsChecked == 3)
    }
  }

  @Test func sameMutateOnATestClockProducesTheRecordedMutations() async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try await recordCounterTrace()
      let clock = TestClock()
      let result = try await MutateReplay.run(
        trace, through: ReplayCounterReactor(clock: clock), clock: clock,
        advance: { await clock.advance(by: $0) })
      #expect(result.divergence == nil)
      #expect(result.stepsChecked == 9)
    }
  }

  @Test func changedMutateIsReportedAtTheFirstMissingMutation() async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try await recordCounterTrace()
      let clock = TestClock()
      let result = try await MutateReplay.run(
        trace, through: ReplayCounterReactor(clock: clock, isSkippingLoading: true),
        clock: clock, advance: { await clock.advance(by: $0) })
      let divergence = try #require(result.divergence)
      #expect(divergence.sequence == 8)
      #expect(divergence.mutation == "setLoading(true)")
      #expect(divergence.action == "decrease")
      #expect(divergence.reason.contains("the replay produced decreaseValue"))
      #expect(result.stepsChecked == 3)
    }
  }
}

@Suite struct StructuralReplayTests {
  @MainActor
  @Test func aGapIsCountedAndIsNotADivergence() async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try droppingEvents(at: 6..<9, from: try await recordCounterTrace())
      let replay = try StructuralReplay(trace)
      var kinds: [String] = []
      while let step = try replay.next() { kinds.append(step.kind) }
      #expect(replay.divergences.isEmpty)
      #expect(replay.droppedEventCount == 3)
      #expect(kinds.filter { $0 == "gap" }.count == 1)
    }
  }

  @MainActor
  @Test func consistentTraceGivesOneStepPerEventWithChangedPaths() async throws {
    try await withExclusiveMainSerialExecutor {
      let replay = try StructuralReplay(try await recordCounterTrace())
      var steps: [ReplayStep] = []
      try replay.forEachStep { steps.append($0) }
      #expect(replay.divergences.isEmpty)
      #expect(steps.map(\.sequence) == Array(1...steps.count))
      let increase = try #require(steps.first { $0.label == "increaseValue" })
      #expect(increase.kind == "mutation")
      #expect(increase.cause == "effect 1 of action 1 (increase)")
      #expect(increase.time == .milliseconds(500))
      #expect(increase.changes == [ReplayStep.Change(path: [.key("value")], before: 0, after: 1)])
      #expect(
        increase.json.serializedString
          == #"{"cause":"effect 1 of action 1 (increase)","changes":[{"after":1,"#
          + #""before":0,"path":"value"}],"kind":"mutation","label":"increaseValue","line":5,"#
          + #""seq":4,"t":500000000}"#)
    }
  }

  @MainActor
  @Test func handEditedStateIsADivergenceAtThatExactSequence() async throws {
    try await withExclusiveMainSerialExecutor {
      let bytes = try editing(
        try await recordCounterTrace(), replacing: #""p":["value"],"v":1}"#,
        with: #""p":["value"],"v":5}"#)
      let replay = StructuralReplay(reader: try SessionReader(bytes: bytes, verifyingStates: false))
      var edited: ReplayStep?
      try replay.forEachStep { if $0.sequence == 4 { edited = $0 } }
      let first = try #require(replay.divergences.first)
      #expect(first.sequence == 4)
      guard case .stateMismatch(.stateMismatch(_, let line, _, _, _)) = first else {
        Issue.record("unexpected divergence \(first)")
        return
      }
      #expect(line == 5)
      #expect(edited?.changes.first?.after == 5)
    }
  }

  @MainActor
  @Test func brokenCausalityAndSequenceGapsAreDivergences() async throws {
    try await withExclusiveMainSerialExecutor {
      var trace = try await recordCounterTrace()
      // Drop the first action: its effect and mutations now refer to an unseen action.
      trace.events.removeFirst()
      let replay = try StructuralReplay(trace)
      try replay.forEachStep { _ in }
      #expect(replay.divergences.first == .sequenceGap(line: 2, expected: 1, found: 2))
      #expect(
        replay.divergences.contains {
          if case .brokenCause(3, _, let reason) = $0 { reason.contains("action 1") } else { false }
        })
    }
  }

  @MainActor
  @Test func stateAtAStepAndARangeOfStepsAreRead() async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try await recordCounterTrace()
      #expect(
        try StructuralReplay(trace).state(at: 4)?.jsonValue?["value"] == 1)
      #expect(try StructuralReplay(trace).state(at: 0) == trace.header.initialState)
      #expect(try StructuralReplay(trace).steps(in: 2...3).map(\.sequence) == [2, 3])
      #expect(try StructuralReplay(trace).state(at: 999) == nil)
    }
  }
}

@Suite struct TraceDiffTests {
  @MainActor
  @Test func identicalRecordingsHaveNoDivergence() async throws {
    try await withExclusiveMainSerialExecutor {
      let first = try await recordCounterTrace()
      let second = try await recordCounterTrace()
      #expect(try TraceDiff.firstDivergence(first, second) == nil)
    }
  }

  @MainActor
  @Test func differentRecordingsNameTheFirstDifferingSequence() async throws {
    try await withExclusiveMainSerialExecutor {
      let first = try await recordCounterTrace()
      let clock = TestClock()
      let reactor = ReplayCounterReactor(clock: clock, step: 2)
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(clock: clock))
      reactor.send(.increase)
      await clock.advance(by: .milliseconds(500))
      recorder.stop()
      let divergence = try #require(try TraceDiff.firstDivergence(first, recorder.trace))
      #expect(divergence.sequence == 4)
      #expect(divergence.reason == "the states after mutation increaseValue differ")
      #expect(divergence.stateDiff == "  value: 1 → 2")
    }
  }
}

@Suite struct GoldenTraceTests {
  @MainActor
  @Test func missingGoldenIsRecordedThenVerified() async throws {
    try await withExclusiveMainSerialExecutor {
      let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("golden-\(UUID().uuidString).trace.jsonl").path
      defer { try? FileManager.default.removeItem(atPath: path) }
      let first = try await GoldenTrace.verifyOrRecord(path: path, isRecording: false) {
        try await recordCounterTrace()
      }
      #expect(first == .recorded)
      let second = try await GoldenTrace.verifyOrRecord(path: path, isRecording: false) {
        try await recordCounterTrace()
      }
      #expect(second == .matched)
      #expect(second.failureMessage == nil)
      let third = try await GoldenTrace.verifyOrRecord(path: path, isRecording: false) {
        var trace = try await recordCounterTrace()
        trace.events.removeLast()
        return trace
      }
      #expect(third.failureMessage?.contains("the first trace") == false)
      guard case .diverged(let divergence) = third else {
        Issue.record("expected a divergence, got \(third)")
        return
      }
      #expect(divergence.reason == "the second trace ends here")
    }
  }
}

extension TraceHeader.State {
  /// The JSON of a state stored as JSON.
  fileprivate var jsonValue: JSONValue? {
    if case .json(let json) = self { return json }
    return nil
  }
}

@Suite struct SampleTraceTests {
  /// The repository, found relative to this file.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
  /// The repository's sample traces.
  static let traces = root + "/Traces"

  @Test(arguments: ["Traces/counter.trace.jsonl", "Tests/Fixtures/feed.trace.jsonl"])
  func sampleTraceIsStructurallyConsistent(path: String) throws {
    let divergences = try StructuralReplay.run(path: Self.root + "/" + path)
    #expect(divergences.isEmpty)
  }

  @MainActor
  @Test func sampleCounterTraceReplaysThroughACopyOfItsReactorWithTheOverride() throws {
    let result = try ReduceReplay.run(
      path: Self.traces + "/counter.trace.jsonl",
      through: ReplayCounterReactor(clock: ContinuousClock()), allowingReactorMismatch: true)
    #expect(result.failureMessage == nil)
    #expect(result.stepsChecked > 0)
  }
}

@MainActor
@Suite struct TraceChangesTests {
  @Test func theSameRunHasNoChangesAndAChangedOneCountsWhatDiffers() async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try await recordCounterTrace()
      #expect(try TraceChanges(from: trace, to: trace).isEmpty)
      #expect(
        try TraceChanges(from: trace, to: trace).description
          == "no change: the same events and states")

      let clock = TestClock()
      let reactor = ReplayCounterReactor(clock: clock, isSkippingLoading: true)
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(clock: clock))
      reactor.send(.increase)
      await clock.advance(by: .milliseconds(500))
      reactor.send(.decrease)
      await clock.advance(by: .milliseconds(100))
      reactor.send(.increase)
      await clock.advance(by: .milliseconds(500))
      recorder.stop()
      // `decrease` no longer shows and hides the loading indicator: two mutations fewer, and
      // the states after the decrease keep isLoading as it was.
      let changes = try TraceChanges(from: trace, to: recorder.trace)
      #expect(changes.added == 0)
      #expect(changes.removed == 2)
      #expect(changes.firstDivergence?.sequence == 8)
    }
  }
}

@MainActor
@Suite struct MutateReplayStoppingTests {
  @Test func noActionIsSentAfterTheFirstDivergence() async throws {
    try await withExclusiveMainSerialExecutor {
      // increase at 0, decrease at 500 (diverges: no loading mutations), increase at 600.
      let trace = try await recordCounterTrace()
      let clock = TestClock()
      var sent: [Int] = []
      let result = try await MutateReplay.run(
        trace, through: ReplayCounterReactor(clock: clock, isSkippingLoading: true),
        clock: clock, advance: { await clock.advance(by: $0) },
        willSend: { sequence, _ in sent.append(sequence) })
      #expect(result.divergence?.sequence == 8)
      #expect(sent.count == 2)
    }
  }

  @Test func aFlightRecorderWindowIsRefusedWithOneLine() async throws {
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = ReplayCounterReactor(clock: clock)
      let recorder = try FlightRecorder(
        recording: reactor, keeping: FlightWindow(events: 6, duration: nil),
        options: TraceOptions(clock: clock))
      for _ in 0..<4 { reactor.send(.decrease) }
      let window = recorder.trace
      recorder.stop()
      await #expect(throws: ReplayError.windowed(firstSequence: 11, droppedEvents: 10)) {
        try await MutateReplay.run(
          window, through: ReplayCounterReactor(clock: clock), clock: clock,
          advance: { await clock.advance(by: $0) })
      }
      let line = ReplayError.windowed(firstSequence: 11, droppedEvents: 10).description
      #expect(!line.contains("\n"))
      #expect(line.contains("--mode reduce"))
    }
  }
}
