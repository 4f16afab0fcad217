import Clocks
import ReactorCore
import ReactorExamples
import ReactorTestSupport
import ReactorTracing
import Testing

extension TracingTests {
  @MainActor
  @Suite struct Recording {
    @Test func counterTraceRecordsEachActionEffectMutationAndStateWithItsCause() async throws {
      try await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = CounterReactor(clock: clock)
        let recorder = try InMemoryTraceRecorder(
          recording: reactor, options: TraceOptions(clock: clock))
        reactor.send(.increase)
        await clock.advance(by: .milliseconds(500))
        reactor.send(.decrease)
        recorder.stop()

        let trace = recorder.trace
        #expect(
          trace.events.map(\.summary) == [
            "action 1 increase (sent)",
            "effect 1 started by action 1",
            "mutation 1 setLoading(true) from effect 1 of action 1",
            "mutation 2 increaseValue from effect 1 of action 1",
            "mutation 3 setLoading(false) from effect 1 of action 1",
            "effect 1 finished",
            "action 2 decrease (sent)",
            "mutation 4 setLoading(true) from action 2",
            "mutation 5 decreaseValue from action 2",
            "mutation 6 setLoading(false) from action 2",
            "end 10 observed, 0 dropped",
          ])
        #expect(trace.events.map(\.sequence) == Array(1...11))
        #expect(trace.events.map(\.time.components.seconds) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(trace.events[3].time == .milliseconds(500))
        #expect(trace.header.reactor.hasSuffix("CounterReactor"))
        #expect(trace.header.clock.origin == nil)
        #expect(
          trace.header.initialState
            == .json([
              "value": 0, "isLoading": false,
              "alertMessage": ["value": nil, "valueUpdatedCount": 0],
            ]))

        guard case .action(let action) = trace.events[0].kind else {
          Issue.record("the first event is not an action")
          return
        }
        #expect(action.value == ["increase": [:]])
      }
    }

    @Test func everyRecordedStateIsTheStateReduceReturned() async throws {
      try await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = CounterReactor(clock: clock)
        let reduced = Box<[CounterReactor.State]>([])
        let subscription = reactor.state.observe { reduced.value.append($0) }
        let recorder = try InMemoryTraceRecorder(recording: reactor)
        reactor.send(.decrease)
        reactor.send(.increase)
        await clock.advance(by: .seconds(1))
        subscription.cancel()

        let reader = try TraceReader(bytes: recorder.trace.serialized)
        var rebuilt: [JSONValue] = []
        while let event = try reader.next() {
          if case .mutation = event.kind, case .json(let state) = reader.currentState {
            rebuilt.append(state)
          }
        }
        let encoder = JSONValueEncoder()
        #expect(rebuilt == (try reduced.value.dropFirst().map { try encoder.encode($0) }))
      }
    }

    @Test func traceOrderIsTheOrderReduceAppliedConcurrentEffects() async throws {
      try await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = FeedReactor(clock: clock)
        let recorder = try InMemoryTraceRecorder(
          recording: reactor, options: TraceOptions(clock: clock))
        reactor.send(.load("slow", delay: 300))
        reactor.send(.load("fast", delay: 100))
        reactor.send(.load("middle", delay: 200))
        await clock.advance(by: .milliseconds(300))

        let mutations = recorder.events.compactMap { event -> String? in
          guard case .mutation(let mutation) = event.kind else { return nil }
          return "\(mutation.label) ← action \(mutation.cause.action ?? 0) at \(event.time)"
        }
        #expect(
          mutations == [
            #"loaded("fast") ← action 2 at 0.1 seconds"#,
            #"loaded("middle") ← action 3 at 0.2 seconds"#,
            #"loaded("slow") ← action 1 at 0.3 seconds"#,
          ])
        #expect(reactor.currentState.log == ["loaded fast", "loaded middle", "loaded slow"])
        let effectStarts = recorder.events.compactMap { event -> String? in
          guard case .effectStarted(let start) = event.kind else { return nil }
          return "\(start.effect)←\(start.action) \(start.name ?? "")"
        }
        #expect(effectStarts == ["1←1 load slow", "2←2 load fast", "3←3 load middle"])
      }
    }

    @Test func mutationsAndActionsFromExternalStreamsNameTheirStream() async throws {
      try await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = FeedReactor(clock: clock)
        let recorder = try InMemoryTraceRecorder(recording: reactor)
        reactor.send(.load("first", delay: 0))
        await clock.advance(by: .zero)
        reactor.pushes.accept("hello")
        reactor.taps.accept(.load("tapped", delay: 0))
        await clock.advance(by: .zero)

        #expect(
          recorder.events.map(\.summary) == [
            "action 1 load(\"first\", delay: 0) (sent)",
            "effect 1 started by action 1",
            "mutation 1 loaded(\"first\") from effect 1 of action 1",
            "effect 1 finished",
            "mutation 2 pushed(\"hello\") from stream server",
            "action 2 load(\"tapped\", delay: 0) (stream taps)",
            "effect 2 started by action 2",
            "mutation 3 loaded(\"tapped\") from effect 2 of action 2",
            "effect 2 finished",
          ])
      }
    }

    @Test func cancelledAndFailedEffectsAreRecordedWithHowTheyEnded() async throws {
      try await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = FeedReactor(clock: clock)
        let recorder = try InMemoryTraceRecorder(recording: reactor)
        reactor.send(.search("re"))
        await clock.advance(by: .milliseconds(100))
        reactor.send(.search("reactor"))
        await clock.advance(by: .milliseconds(300))
        reactor.send(.fail)
        await clock.advance(by: .zero)

        let summaries = recorder.events.map(\.summary)
        #expect(
          summaries == [
            "action 1 search(\"re\") (sent)",
            "effect 1 started by action 1",
            "action 2 search(\"reactor\") (sent)",
            "effect 2 started by action 2",
            "effect 1 cancelled",
            "mutation 1 results(\"reactor\") from effect 2 of action 2",
            "effect 2 finished",
            "action 3 fail (sent)",
            "effect 3 started by action 3",
            "effect 3 failed(\"network down\")",
          ])
      }
    }

    @Test func aTypeThatIsNotCodableStillRecordsReadableLabelsAndSaysItCannotBeDecoded() throws {
      let reactor = OpaqueReactor()
      let recorder = try InMemoryTraceRecorder(recording: reactor)
      reactor.send(.poke(7))
      let trace = recorder.trace

      #expect(trace.header.schema.action.isCodable == false)
      #expect(trace.header.schema.state.isCodable == false)
      #expect(trace.header.initialState == .description("State(pokes: [])"))
      guard case .mutation(let mutation) = trace.events[1].kind else {
        Issue.record("expected a mutation")
        return
      }
      #expect(mutation.label == "poke(7)")
      #expect(mutation.value == nil)
      #expect(mutation.state == .description("State(pokes: [7])"))

      let reread = try Trace(bytes: trace.serialized)
      #expect(reread.events == trace.events)
    }

    @Test func attachingARecorderDoesNotChangeWhatTheReactorDoes() async throws {
      try await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let plain = CounterReactor(clock: clock)
        let recorded = CounterReactor(clock: clock)
        let recorder = try InMemoryTraceRecorder(recording: recorded)
        for reactor in [plain, recorded] {
          reactor.send(.increase)
          reactor.send(.decrease)
        }
        await clock.advance(by: .seconds(1))
        #expect(plain.currentState == recorded.currentState)
        recorder.stop()
        #expect(recorded.runtime.monitor == nil)
        recorded.send(.decrease)
        #expect(recorder.observedEventCount == 10)
      }
    }
  }
}
