import Clocks
import ConcurrencyExtras
import ReactorCore
import ReactorTestSupport
import Testing

/// Every stage of the pipeline appends its name, so the state spells out the order.
private final class StageReactor: Reactor {
  typealias Action = [String]
  typealias Mutation = [String]
  typealias State = [String]

  let initialState: State = []
  let runtime = Runtime()

  func transform(action: Flow<Action>) -> Flow<Action> { action.map { $0 + ["transformedAction"] } }
  func mutate(action: Action) -> Effect<Mutation> { .just(action + ["mutation"]) }
  func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
    mutation.map { $0 + ["transformedMutation"] }
  }
  func reduce(state: State, mutation: Mutation) -> State { state + mutation + ["reduce"] }
  func transform(state: Flow<State>) -> Flow<State> { state.map { $0 + ["transformedState"] } }
}

private let everyStage = [
  "action", "transformedAction", "mutation", "transformedMutation", "reduce", "transformedState",
]

/// Appends characters one effect at a time, each effect reading `currentState` when it starts.
private final class CharactersReactor: Reactor {
  enum Action { case append([String]) }
  enum Mutation { case setCharacters([String]) }
  struct State { var characters: [String] = [] }

  let initialState = State()
  let runtime = Runtime()

  func mutate(action: Action) -> Effect<Mutation> {
    guard case .append(let characters) = action else { return .none }
    return .concat(
      characters.map { character in
        .run { [unowned self] send in
          send(.setCharacters(currentState.characters + [character]))
        }
      })
  }

  func reduce(state: State, mutation: Mutation) -> State {
    guard case .setCharacters(let characters) = mutation else { return state }
    var state = state
    state.characters = characters
    return state
  }
}

/// A counter whose `mutate` can end its effect with a failure or early, once the count
/// reaches a chosen value; and whose actions can also come from two external sources.
private final class CountingReactor: Reactor {
  typealias Action = Int
  typealias Mutation = Int
  typealias State = Int

  let initialState = 0
  let runtime = Runtime()
  var failAt: Int?
  var finishEarlyAt: Int?
  let sources: [AsyncThrowingStream<Int, any Error>]

  init(sources: [AsyncThrowingStream<Int, any Error>] = []) { self.sources = sources }

  func transform(action: Flow<Int>) -> Flow<Int> {
    sources.enumerated().reduce(action) { flow, source in
      flow.merge(source.element, name: "source \(source.offset)")
    }
  }

  func mutate(action: Int) -> Effect<Int> {
    if currentState == failAt {
      return .run { send in
        send(action)
        throw PortFailure()
      }
    }
    if currentState == finishEarlyAt {
      return .run { send in send(action) }
    }
    return .just(action)
  }

  func reduce(state: Int, mutation: Int) -> Int { state + 1 }
}

private struct PortFailure: Error {}

/// ReactorKit's stopwatch: `start` ticks once a second until `stop`.
private final class StopwatchReactor: Reactor {
  enum Action: Equatable { case start, stop }
  typealias Mutation = Int
  typealias State = Int

  let initialState = 0
  let runtime = Runtime()
  let clock: TestClock<Duration>

  init(clock: TestClock<Duration>) { self.clock = clock }

  func mutate(action: Action) -> Effect<Int> {
    switch action {
    case .start:
      return .run(id: "interval") { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          send(1)
        }
      }
    case .stop:
      return .cancel(id: "interval")
    }
  }

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

/// ReactorKit's generic-subclass case: a reactor declared on a generic parent.
private class ParentReactor<T>: Reactor {
  enum Action { case foo }
  typealias Mutation = Void
  typealias State = Int

  let initialState = 0
  let runtime = Runtime()
  var transformCalls = 0

  func transform(action: Flow<Action>) -> Flow<Action> {
    transformCalls += 1
    return action
  }

  func mutate(action: Action) -> Effect<Void> { .just(()) }
  func reduce(state: Int, mutation: Void) -> Int { state + 1 }
}

private final class ChildReactor: ParentReactor<String> {}

extension ReactorKitPort {
  /// ReactorKit's `ReactorTests`.
  @MainActor
  @Suite struct Reactor {
    @Test func eachStageRunsOnceInOrder() {
      let reactor = StageReactor()
      let states = Box<[[String]]>([])
      let subscription = reactor.state.observe { states.value.append($0) }
      reactor.send(["action"])
      #expect(states.value == [["transformedState"], everyStage])
      subscription.cancel()
    }

    @Test func reduceRunsRightAfterEachMutation() {
      let reactor = CharactersReactor()
      reactor.send(.append(["a", "b"]))
      reactor.send(.append(["c"]))
      reactor.send(.append(["d", "e", "f"]))
      #expect(reactor.currentState.characters == ["a", "b", "c", "d", "e", "f"])
    }

    @Test func newObserverGetsOnlyTheLatestState() {
      let reactor = CountingReactor()
      let first = reactor.state.observe { _ in }
      reactor.send(1)
      reactor.send(1)
      first.cancel()
      let states = Box<[Int]>([])
      let second = reactor.state.observe { states.value.append($0) }
      #expect(states.value == [2])
      second.cancel()
    }

    @Test func currentStateAfterAccessingTheStateStream() {
      let reactor = StageReactor()
      _ = reactor.state
      reactor.send(["action"])
      #expect(reactor.currentState == everyStage)
    }

    @Test func sendingBuildsThePipelineWithoutTheStateStream() {
      let reactor = StageReactor()
      reactor.send(["action"])
      #expect(reactor.currentState == everyStage)
    }

    @Test(arguments: [true, false])
    func failedOrFinishedActionSourceDoesNotStopTheOthers(fails: Bool) async {
      await withExclusiveMainSerialExecutor {
        let (first, firstInput) = AsyncThrowingStream.makeStream(of: Int.self)
        let (second, secondInput) = AsyncThrowingStream.makeStream(of: Int.self)
        let reactor = CountingReactor(sources: [first, second])
        let states = Box<[Int]>([])
        let subscription = reactor.state.observe { states.value.append($0) }
        firstInput.yield(1)
        await Task.megaYield()
        firstInput.yield(1)
        await Task.megaYield()
        firstInput.finish(throwing: fails ? PortFailure() : nil)
        secondInput.finish(throwing: fails ? PortFailure() : nil)
        await Task.megaYield()
        firstInput.yield(1)
        reactor.send(1)
        reactor.send(1)
        await Task.megaYield()
        #expect(states.value == [0, 1, 2, 3, 4])
        subscription.cancel()
      }
    }

    @Test(arguments: [true, false])
    func failedOrFinishedEffectKeepsItsMutationsAndLaterActionsWork(fails: Bool) {
      let reactor = CountingReactor()
      if fails { reactor.failAt = 2 } else { reactor.finishEarlyAt = 2 }
      let states = Box<[Int]>([])
      let subscription = reactor.state.observe { states.value.append($0) }
      for _ in 0..<5 { reactor.send(1) }
      #expect(states.value == [0, 1, 2, 3, 4, 5])
      subscription.cancel()
    }

    @Test func stopCancelsTheRunningInterval() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = StopwatchReactor(clock: clock)
        let states = Box<[Int]>([])
        let subscription = reactor.state.observe { states.value.append($0) }
        // ReactorKit's schedule: start at 1 s, stop at 5 s, start at 6 s, stop at 9 s.
        await clock.advance(by: .seconds(1))
        reactor.send(.start)
        await clock.advance(by: .seconds(3))  // ticks at 2, 3 and 4 s
        await clock.advance(by: .milliseconds(999))
        reactor.send(.stop)  // just before the tick at 5 s
        await clock.advance(by: .milliseconds(1_001))
        reactor.send(.start)  // 6 s
        await clock.advance(by: .seconds(2))  // ticks at 7 and 8 s
        await clock.advance(by: .milliseconds(999))
        reactor.send(.stop)  // just before the tick at 9 s
        await clock.advance(by: .seconds(10))
        #expect(states.value == [0, 1, 2, 3, 4, 5])
        subscription.cancel()
      }
    }

    @Test func stubbedSendAndStateGoThroughTheStub() {
      let reactor = StageReactor()
      reactor.isStubEnabled = true
      let states = Box<[[String]]>([])
      let subscription = reactor.state.observe { states.value.append($0) }
      reactor.send(["A"])
      reactor.stub.state = ["B"]
      #expect(reactor.stub.actions == [["A"]])
      #expect(states.value == [[], ["B"]])
      subscription.cancel()
    }

    @Test func stubRecordsActions() {
      let reactor = StopwatchReactor(clock: TestClock())
      reactor.isStubEnabled = true
      reactor.send(.start)
      reactor.send(.start)
      reactor.send(.stop)
      #expect(reactor.stub.actions == [.start, .start, .stop])
    }

    @Test func stubStateBecomesTheCurrentState() {
      let reactor = StopwatchReactor(clock: TestClock())
      reactor.isStubEnabled = true
      for value in [0, 1, -10, 30] {
        reactor.stub.state = value
        #expect(reactor.currentState == value)
      }
    }

    @Test func stubIgnoresActions() {
      let reactor = StageReactor()
      reactor.isStubEnabled = true
      reactor.send(["A"])
      #expect(reactor.currentState == [])
    }

    @Test func genericSubclassKeepsOnePipeline() {
      let reactor = ChildReactor()
      reactor.send(.foo)
      _ = reactor.state
      let asParent: ParentReactor<String> = reactor
      asParent.send(.foo)
      _ = asParent.state
      #expect(reactor.transformCalls == 1)
    }

    @Test func genericSubclassBuildsThePipelineOnSend() {
      let reactor = ChildReactor()
      #expect(reactor.currentState == 0)
      reactor.send(.foo)
      #expect(reactor.currentState == 1)
    }

    @Test func reactorAndItsStateStreamAreReleased() async {
      weak var weakReactor: StageReactor?
      var values: AsyncStream<[String]>
      do {
        let reactor = StageReactor()
        weakReactor = reactor
        reactor.send(["action"])
        values = reactor.state.values
      }
      #expect(weakReactor == nil)
      var received: [[String]] = []
      for await state in values { received.append(state) }
      #expect(received == [everyStage])
    }

    @Test func reactorsCompareByIdentity() {
      let reactor = StageReactor()
      let same = reactor
      #expect(reactor === same)
      #expect(ObjectIdentifier(reactor) == ObjectIdentifier(same))
      #expect(reactor !== StageReactor())
    }
  }
}
