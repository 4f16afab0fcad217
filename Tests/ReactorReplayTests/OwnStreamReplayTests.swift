import Clocks
import ReactorCore
import ReactorExamples
import ReactorReplay
import ReactorTestSupport
import ReactorTracing
import Testing

/// Mutate replay with effects played back, of a reactor whose mutations come back through a
/// stream it publishes to itself.
@MainActor
@Suite struct OwnStreamReplayTests {
  /// Publishes on a relay synchronously in `mutate` and returns no mutation; the change comes
  /// back through the relay, which it merges.
  private final class EchoReactor: Reactor {
    enum Action: Codable, Sendable { case say(String) }
    enum Mutation: Codable, Sendable { case heard(String) }
    struct State: Codable, Sendable { var heard: [String] = [] }
    let initialState = State()
    let runtime = Runtime()
    let relay = Relay<String>()

    func mutate(action: Action) -> Effect<Mutation> {
      switch action {
      case .say(let text):
        relay.accept(text)
        return .none
      }
    }

    func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
      mutation.merge(relay.flow(name: "echo").map { .heard($0) })
    }

    func reduce(state: State, mutation: Mutation) -> State {
      switch mutation {
      case .heard(let text): State(heard: state.heard + [text])
      }
    }
  }

  @Test func anElementMutatePublishedIsPublishedAgainNotDeliveredTwice() async throws {
    try await withExclusiveMainSerialExecutor {
      let reactor = EchoReactor()
      let recorder = try InMemoryTraceRecorder(recording: reactor)
      reactor.send(.say("a"))
      reactor.relay.accept("from outside")
      reactor.send(.say("b"))
      recorder.stop()

      let clock = TestClock()
      let result = try await MutateReplay.run(
        recorder.trace, through: EchoReactor(), clock: clock,
        advance: { await clock.advance(by: $0) }, effects: .recorded)
      #expect(result.failureMessage == nil)
      #expect(result.stepsChecked == 3)
    }
  }

  @Test func anElementAnEffectPublishedIsDeliveredFromTheRecording() async throws {
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let service = PostService(clock: clock, latency: .milliseconds(100))
      let button = LikeButtonReactor(post: 1, service: service)
      let recorder = try InMemoryTraceRecorder(
        recording: button, options: TraceOptions(clock: clock))
      button.send(.like)
      await clock.advance(by: .milliseconds(100))
      button.send(.unlike)
      await clock.advance(by: .milliseconds(100))
      recorder.stop()

      // The service's clock is never advanced: its requests never answer.
      let replayClock = TestClock()
      let result = try await MutateReplay.run(
        recorder.trace,
        through: LikeButtonReactor(post: 1, service: PostService(clock: TestClock())),
        clock: replayClock, advance: { await replayClock.advance(by: $0) }, effects: .recorded)
      #expect(result.failureMessage == nil)
      #expect(result.playedEffects.map(\.name) == ["setLiked", "setLiked"])
    }
  }
}
