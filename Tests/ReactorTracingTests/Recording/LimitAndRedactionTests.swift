import ReactorCore
import ReactorTracing
import Testing

extension TracingTests {
  @MainActor
  @Suite struct LimitsAndRedaction {
    @Test func aFirstEventsLimitKeepsTheStartAndCountsWhatItDropped() throws {
      let reactor = OpaqueReactor()
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(limit: .firstEvents(3)))
      for value in 1...5 { reactor.send(.poke(value)) }
      recorder.stop()
      #expect(
        recorder.events.map(\.summary) == [
          "action 1 poke(1) (sent)", "mutation 1 poke(1) from action 1",
          "action 2 poke(2) (sent)", "end 10 observed, 7 dropped",
        ])
      #expect(recorder.droppedEventCount == 7)
      #expect(try Trace(bytes: recorder.trace.serialized).events == recorder.events)
    }

    @Test func aRollingWindowStartsFromTheStateBeforeItsFirstEventAndStillVerifies() throws {
      let reactor = LargeStateReactor()
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(limit: .lastEvents(5), snapshotInterval: 2))
      for index in 0..<20 { reactor.send(.set(index: index, value: index + 100)) }
      let trace = recorder.trace
      #expect(trace.events.map(\.sequence) == Array(36...40))
      #expect(trace.header.window == TraceHeader.Window(firstSequence: 36, droppedEvents: 35))
      guard case .json(let initial) = trace.header.initialState else {
        Issue.record("the window's initial state is not JSON")
        return
      }
      // Event 35 is the action of step 17; its mutation (event 36) is the window's first.
      #expect(initial["values"]?.arrayValue?[16] == 116)
      #expect(initial["values"]?.arrayValue?[17] == 0)

      let reader = try TraceReader(bytes: trace.serialized)
      while try reader.next() != nil {}
      #expect(reader.currentState == .json(try JSONValueEncoder().encode(reactor.currentState)))
    }

    @Test func redactedPathsNeverReachTheTraceNotEvenThroughLabels() throws {
      let reactor = AccountReactor()
      let recorder = try InMemoryTraceRecorder(
        recording: reactor,
        options: TraceOptions(redactions: [
          "action.login.password", "*.**.token", "state.session.email",
        ]))
      reactor.send(.login(user: "ana", password: "hunter2"))
      let trace = recorder.trace
      let text = String(decoding: trace.serialized, as: UTF8.self)

      #expect(!text.contains("hunter2"))
      #expect(!text.contains("tok-ana-secret"))
      #expect(text.contains("ana@example.com"))  // Only the state's copy is redacted.
      #expect(
        trace.header.redactions == ["action.login.password", "*.**.token", "state.session.email"])
      guard case .action(let action) = trace.events[0].kind,
        case .mutation(let mutation) = trace.events[1].kind
      else {
        Issue.record("expected an action and a mutation")
        return
      }
      #expect(action.label == #"login(password: "<redacted>", user: "ana")"#)
      #expect(action.value == ["login": ["user": "ana", "password": "<redacted>"]])
      #expect(mutation.label == #"setSession(email: "ana@example.com", token: "<redacted>")"#)
      let reader = try TraceReader(bytes: trace.serialized)
      while try reader.next() != nil {}
      #expect(
        reader.currentState
          == .json(["attempts": 1, "session": ["email": "<redacted>", "token": "<redacted>"]]))
    }

    @Test(arguments: ["", "user.name", "state..name", "session.*"])
    func malformedRedactionPatternsAreRejectedWhenRecordingStarts(pattern: String) {
      let reactor = AccountReactor()
      #expect(throws: TraceRecordingError.self) {
        try InMemoryTraceRecorder(
          recording: reactor, options: TraceOptions(redactions: [TraceRedaction(pattern)]))
      }
    }

    @Test func aStateOfAThousandIntsIsStoredAsSmallDiffsBetweenOccasionalSnapshots() throws {
      let reactor = LargeStateReactor()
      let recorder = try InMemoryTraceRecorder(recording: reactor)
      let count = 1000
      for step in 0..<count { reactor.send(.set(index: (step * 7) % 1000, value: step)) }
      let trace = recorder.trace
      let snapshots = trace.events.filter {
        if case .mutation(let mutation) = $0.kind, case .snapshot = mutation.state { return true }
        return false
      }
      #expect(snapshots.count == count / 256)

      let encoder = JSONValueEncoder()
      let fullStateBytes = try encoder.encode(reactor.currentState).serialized.count
      let bytesPerEvent = Double(trace.serialized.count) / Double(trace.events.count)
      #expect(bytesPerEvent < Double(fullStateBytes) * 0.05)

      let reader = try TraceReader(bytes: trace.serialized)
      while try reader.next() != nil {}
      #expect(reader.currentState == .json(try encoder.encode(reactor.currentState)))
    }
  }
}
