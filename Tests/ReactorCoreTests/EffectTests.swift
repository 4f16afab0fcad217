import Clocks
import ConcurrencyExtras
import ReactorCore
import ReactorTestSupport
import Testing

/// A reactor whose actions script effects directly, for testing how effects run.
private final class ScriptReactor: Reactor {
  typealias Action = ScriptAction
  typealias Mutation = String

  struct State: Equatable {
    var entries: [String] = []
  }

  let initialState = State()
  let runtime = Runtime()
  let clock: TestClock<Duration>
  var seenInCurrentState: [[String]] = []

  init(clock: TestClock<Duration>) {
    self.clock = clock
  }

  func mutate(action: Action) -> Effect<Mutation> {
    let clock = self.clock
    switch action {
    case .emit(let entries):
      return .sequence(entries)
    case .delayed(let steps, let id, let cancelInFlight):
      return .run(id: id, cancelInFlight: cancelInFlight, name: "delayed") { send in
        for (delay, entry) in steps {
          try await clock.sleep(for: .milliseconds(delay))
          send(entry)
        }
      }
    case .emitThenFail(let entry):
      return .run(name: "failing") { send in
        send(entry)
        throw TestFailure(description: "network down")
      }
    case .readBack:
      return .run { [unowned self] send in
        send("first")
        seenInCurrentState.append(currentState.entries)
        send("second")
        seenInCurrentState.append(currentState.entries)
      }
    case .concatenated:
      return .concat(
        .just("start"),
        .run { send in
          try await clock.sleep(for: .milliseconds(100))
          send("middle")
        },
        .just("end")
      )
    case .cancel(let id):
      return .cancel(id: id)
    case .ignoresCancellation(let entry):
      return .run(id: "stubborn") { send in
        do { try await clock.sleep(for: .milliseconds(100)) } catch {}
        send(entry)
      }
    case .mapped:
      return Effect<Int>.sequence([1, 2]).map { "mapped \($0)" }
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    state.entries.append(mutation)
    return state
  }
}

private enum ScriptAction: Sendable {
  case emit([String])
  case delayed([(Int, String)], id: String? = nil, cancelInFlight: Bool = false)
  case emitThenFail(String)
  case readBack
  case concatenated
  case cancel(String)
  case ignoresCancellation(String)
  case mapped
}

extension CoreTests {
  @MainActor
  @Suite struct Effects {
    @Test func synchronousMutationsAreReducedInOrder() {
      let reactor = ScriptReactor(clock: TestClock())
      reactor.send(.emit(["a", "b", "c"]))
      #expect(reactor.currentState.entries == ["a", "b", "c"])
    }

    @Test func eachMutationIsReducedBeforeTheNextOneIsProduced() {
      let reactor = ScriptReactor(clock: TestClock())
      reactor.send(.readBack)
      #expect(reactor.seenInCurrentState == [["first"], ["first", "second"]])
    }

    @Test func concurrentEffectsInterleaveInArrivalOrder() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = ScriptReactor(clock: clock)
        let monitor = MonitorLog<ScriptAction, String, ScriptReactor.State>()
        reactor.runtime.monitor = monitor
        reactor.send(.delayed([(300, "a1"), (300, "a2")]))
        reactor.send(.delayed([(100, "b1"), (400, "b2")]))
        await clock.advance(by: .milliseconds(600))
        #expect(reactor.currentState.entries == ["b1", "a1", "b2", "a2"])
        let mutations = monitor.lines.filter { $0.hasPrefix("mutation") }
        #expect(
          mutations == [
            "mutation 1 b1 from effect(2, action: 2)",
            "mutation 2 a1 from effect(1, action: 1)",
            "mutation 3 b2 from effect(2, action: 2)",
            "mutation 4 a2 from effect(1, action: 1)",
          ])
      }
    }

    @Test func failingEffectKeepsItsMutationsAndEndsOnlyItself() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = ScriptReactor(clock: clock)
        let monitor = MonitorLog<ScriptAction, String, ScriptReactor.State>()
        reactor.runtime.monitor = monitor
        reactor.send(.delayed([(100, "slow")]))
        reactor.send(.emitThenFail("before failure"))
        reactor.send(.emit(["after"]))
        await clock.advance(by: .milliseconds(100))
        #expect(reactor.currentState.entries == ["before failure", "after", "slow"])
        #expect(monitor.lines.contains("effect 2 failed(\"network down\")"))
        #expect(monitor.lines.contains("effect 1 finished"))
      }
    }

    @Test func concatRunsEachEffectAfterThePreviousOneEnds() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = ScriptReactor(clock: clock)
        reactor.send(.concatenated)
        #expect(reactor.currentState.entries == ["start"])
        await clock.advance(by: .milliseconds(99))
        #expect(reactor.currentState.entries == ["start"])
        await clock.advance(by: .milliseconds(1))
        #expect(reactor.currentState.entries == ["start", "middle", "end"])
      }
    }

    @Test func mappedEffectEmitsTransformedMutations() {
      let reactor = ScriptReactor(clock: TestClock())
      reactor.send(.mapped)
      #expect(reactor.currentState.entries == ["mapped 1", "mapped 2"])
    }

    @Test func cancelInFlightKeepsOnlyTheLatestSearch() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = ScriptReactor(clock: clock)
        let monitor = MonitorLog<ScriptAction, String, ScriptReactor.State>()
        reactor.runtime.monitor = monitor
        reactor.send(.delayed([(300, "results for a")], id: "search", cancelInFlight: true))
        await clock.advance(by: .milliseconds(100))
        reactor.send(.delayed([(300, "results for ab")], id: "search", cancelInFlight: true))
        await clock.advance(by: .milliseconds(1_000))
        #expect(reactor.currentState.entries == ["results for ab"])
        #expect(monitor.lines.contains("effect 1 cancelled"))
        #expect(monitor.lines.contains("effect 2 finished"))
      }
    }

    @Test func cancelledEffectThatKeepsRunningCannotEmit() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = ScriptReactor(clock: clock)
        reactor.send(.ignoresCancellation("stale"))
        reactor.send(.cancel("stubborn"))
        await clock.advance(by: .milliseconds(100))
        await Task.megaYield()
        #expect(reactor.currentState.entries == [])
        #expect(reactor.runtime.runningEffectCount == 0)
      }
    }

    @Test func cancellingAnUnknownIdentifierDoesNothing() {
      let reactor = ScriptReactor(clock: TestClock())
      reactor.send(.cancel("nothing"))
      reactor.send(.emit(["ok"]))
      #expect(reactor.currentState.entries == ["ok"])
    }
  }
}

/// The stopwatch from ReactorKit's tests: start ticks every second, stop cancels the timer.
private final class StopwatchReactor: Reactor {
  enum Action {
    case start
    case stop
  }

  enum Mutation { case tick }

  struct State: Equatable { var ticks = 0 }

  let initialState = State()
  let runtime = Runtime()
  let clock: TestClock<Duration>

  init(clock: TestClock<Duration>) { self.clock = clock }

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .start:
      return .run(id: "timer", cancelInFlight: true) { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          send(.tick)
        }
      }
    case .stop:
      return .cancel(id: "timer")
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    State(ticks: state.ticks + 1)
  }
}

extension CoreTests {
  @MainActor
  @Suite struct Cancellation {
    @Test func stopwatchTicksOnlyWhileRunning() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = StopwatchReactor(clock: clock)
        reactor.send(.start)
        await clock.advance(by: .seconds(3))
        #expect(reactor.currentState.ticks == 3)
        reactor.send(.stop)
        await clock.advance(by: .seconds(5))
        #expect(reactor.currentState.ticks == 3)
        reactor.send(.start)
        await clock.advance(by: .milliseconds(2_500))
        #expect(reactor.currentState.ticks == 5)
        reactor.send(.stop)
        await clock.advance(by: .seconds(10))
        #expect(reactor.currentState.ticks == 5)
        #expect(reactor.runtime.runningEffectCount == 0)
      }
    }

    @Test func startingTwiceRestartsTheTimer() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = StopwatchReactor(clock: clock)
        reactor.send(.start)
        await clock.advance(by: .milliseconds(900))
        reactor.send(.start)
        await clock.advance(by: .milliseconds(900))
        #expect(reactor.currentState.ticks == 0)
        await clock.advance(by: .milliseconds(100))
        #expect(reactor.currentState.ticks == 1)
        #expect(reactor.runtime.runningEffectCount == 1)
        reactor.send(.stop)
      }
    }
  }
}
