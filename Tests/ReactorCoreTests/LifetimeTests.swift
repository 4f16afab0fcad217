import Clocks
import ConcurrencyExtras
import ReactorCore
import ReactorTestSupport
import Testing

/// A generic reactor, subclassed below with a concrete type.
private class ParentReactor<Value: Sendable>: Reactor {
  enum Action { case set(Value) }
  struct State { var values: [Value] = [] }

  let initialState = State()
  let runtime = Runtime()
  var transformCalls = 0

  func transform(action: Flow<Action>) -> Flow<Action> {
    transformCalls += 1
    return action
  }

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    if case .set(let value) = mutation { state.values.append(value) }
    return state
  }
}

private final class ChildReactor: ParentReactor<String> {}

/// A reactor whose effect waits on a clock and notes when it is cancelled.
private final class WaitingReactor: Reactor {
  typealias Action = Int
  struct State { var value = 0 }

  let initialState = State()
  let runtime = Runtime()
  let clock: TestClock<Duration>
  let cancellations: Box<Int>
  var transformCalls = 0

  init(clock: TestClock<Duration>, cancellations: Box<Int>) {
    self.clock = clock
    self.cancellations = cancellations
  }

  func transform(action: Flow<Action>) -> Flow<Action> {
    transformCalls += 1
    return action
  }

  func mutate(action: Int) -> Effect<Int> {
    .run { [clock, cancellations] send in
      do {
        try await clock.sleep(for: .seconds(60))
      } catch {
        cancellations.value += 1
        throw error
      }
      send(action)
    }
  }

  func reduce(state: State, mutation: Int) -> State { State(value: state.value + mutation) }
}

extension CoreTests {
  @MainActor
  @Suite struct Lifetime {
    @Test func genericSubclassGetsOneStablePipeline() {
      let child = ChildReactor()
      let asParent: ParentReactor<String> = child
      child.send(.set("a"))
      asParent.send(.set("b"))
      let (subscription, states) = asParent.recordStates()
      #expect(child.transformCalls == 1)
      #expect(child.currentState.values == ["a", "b"])
      #expect(states().map(\.values) == [["a", "b"]])
      subscription.cancel()
    }

    @Test func reactorIsReleasedWithItsStreams() {
      weak var weakReactor: LogReactor?
      var subscription: Subscription?
      do {
        let reactor = LogReactor()
        reactor.send(.append("a"))
        subscription = reactor.state.observe { _ in }
        weakReactor = reactor
      }
      #expect(weakReactor == nil)
      subscription?.cancel()
    }

    @Test func stateStreamEndsWhenTheReactorIsReleased() async throws {
      var reactor: LogReactor? = LogReactor()
      let values = try #require(reactor?.state.values)
      reactor?.send(.append("a"))
      reactor = nil
      var received: [[String]] = []
      for await state in values {
        received.append(state.entries)
      }
      #expect(received == [[], ["a"]])
    }

    @Test func releasingTheReactorCancelsItsEffects() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let cancellations = Box(0)
        weak var weakReactor: WaitingReactor?
        do {
          let reactor = WaitingReactor(clock: clock, cancellations: cancellations)
          reactor.send(1)
          reactor.send(2)
          #expect(reactor.runtime.runningEffectCount == 2)
          weakReactor = reactor
        }
        await Task.megaYield()
        #expect(weakReactor == nil)
        #expect(cancellations.value == 2)
      }
    }

    @Test func pipelineIsBuiltOnceUnderConcurrentFirstAccess() async {
      let reactor = WaitingReactor(clock: TestClock(), cancellations: Box(0))
      await withTaskGroup(of: Void.self) { group in
        for index in 0..<20 {
          group.addTask { @MainActor in
            if index.isMultiple(of: 2) {
              reactor.send(0)
            } else {
              reactor.state.observe { _ in }.cancel()
            }
          }
        }
      }
      #expect(reactor.transformCalls == 1)
      #expect(reactor.runtime.runningEffectCount == 10)
    }
  }
}
