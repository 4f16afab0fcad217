import ReactorCore
import ReactorExamples
import Testing

/// A reactor that logs every hook and the `currentState` each one sees.
private final class HookOrderReactor: Reactor {
  enum Action { case add(Int) }
  enum Mutation { case add(Int) }
  struct State: Equatable {
    var value = 0
    var isTransformed = false
  }

  let initialState = State()
  let runtime = Runtime()
  var log: [String] = []

  func transform(action: Flow<Action>) -> Flow<Action> {
    log.append("transform(action:)")
    return action.map { [unowned self] action in
      log.append("action hook sees \(currentState.value)")
      return action
    }
  }

  func mutate(action: Action) -> Effect<Mutation> {
    log.append("mutate sees \(currentState.value)")
    guard case .add(let amount) = action else { return .none }
    return .just(.add(amount))
  }

  func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
    log.append("transform(mutation:)")
    return mutation.map { [unowned self] mutation in
      log.append("mutation hook sees \(currentState.value)")
      return mutation
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    log.append("reduce sees \(currentState.value)")
    var state = state
    if case .add(let amount) = mutation { state.value += amount }
    return state
  }

  func transform(state: Flow<State>) -> Flow<State> {
    log.append("transform(state:)")
    return state.map { [unowned self] state in
      log.append("state hook sees \(currentState.value)")
      var state = state
      state.isTransformed = true
      return state
    }
  }
}

extension CoreTests {
  @MainActor
  @Suite struct Pipeline {
    @Test func hooksRunInReactorKitOrderAndSeeTheDocumentedCurrentState() {
      let reactor = HookOrderReactor()
      let subscription = reactor.state.observe { [unowned reactor] state in
        reactor.log.append(
          "observer gets \(state.value), currentState \(reactor.currentState.value)")
      }
      reactor.log.removeAll()

      reactor.send(.add(1))

      #expect(
        reactor.log == [
          "action hook sees 0",
          "mutate sees 0",
          "mutation hook sees 0",
          "reduce sees 0",
          "state hook sees 0",
          "observer gets 1, currentState 1",
        ])
      subscription.cancel()
    }

    @Test func transformHooksRunOnceWhenThePipelineIsBuilt() {
      let reactor = HookOrderReactor()
      reactor.send(.add(1))
      reactor.send(.add(2))
      let hooks = reactor.log.filter { $0.hasPrefix("transform") }
      #expect(hooks == ["transform(action:)", "transform(mutation:)", "transform(state:)"])
    }

    @Test func firstStateIsTheTransformedInitialState() {
      let reactor = HookOrderReactor()
      #expect(reactor.currentState.isTransformed == false)
      let (subscription, states) = reactor.recordStates()
      #expect(states() == [HookOrderReactor.State(value: 0, isTransformed: true)])
      #expect(reactor.currentState.isTransformed)
      subscription.cancel()
    }

    @Test func readingCurrentStateDoesNotBuildThePipeline() {
      let reactor = HookOrderReactor()
      #expect(reactor.currentState == reactor.initialState)
      #expect(reactor.log.isEmpty)
    }

    @Test func pipelineIsHotWithoutObservers() {
      let reactor = LogReactor()
      reactor.send(.append("a"))
      reactor.send(.append("b"))
      #expect(reactor.currentState.entries == ["a", "b"])
    }

    @Test func currentStateIncludesSynchronousMutationsWhenSendReturns() {
      let reactor = CounterReactor(clock: ContinuousClock())
      reactor.send(.decrease)
      #expect(reactor.currentState.value == -1)
      #expect(reactor.currentState.isLoading == false)
    }

    @Test func mutationsEmittedBeforeTheFirstSuspensionAreReducedBeforeSendReturns() {
      let reactor = CounterReactor(clock: ContinuousClock())
      reactor.send(.increase)
      #expect(reactor.currentState.isLoading)
      #expect(reactor.currentState.value == 0)
    }

    @Test func everyMutationProducesAStateEvenWhenEqual() {
      let reactor = LogReactor()
      let (subscription, states) = reactor.recordStates()
      reactor.send(.noop)
      reactor.send(.noop)
      #expect(states().count == 3)
      #expect(Set(states().map(\.entries)) == [[]])
      subscription.cancel()
    }

    @Test func lateObserverReceivesTheLatestStateFirst() {
      let reactor = LogReactor()
      reactor.send(.append("a"))
      reactor.send(.append("b"))
      let (subscription, states) = reactor.recordStates()
      #expect(states().map(\.entries) == [["a", "b"]])
      reactor.send(.append("c"))
      #expect(states().map(\.entries) == [["a", "b"], ["a", "b", "c"]])
      subscription.cancel()
    }

    @Test func cancelledSubscriptionReceivesNothingMore() {
      let reactor = LogReactor()
      let (subscription, states) = reactor.recordStates()
      subscription.cancel()
      reactor.send(.append("a"))
      #expect(states().count == 1)
      #expect(subscription.isCancelled)
    }

    @Test func derivedStreamsMapAndRemoveDuplicates() {
      let reactor = LogReactor()
      let counts = Box<[Int]>([])
      let subscription = reactor.state.map(\.entries.count).removeDuplicates()
        .observe { counts.value.append($0) }
      reactor.send(.noop)
      reactor.send(.append("a"))
      reactor.send(.noop)
      #expect(counts.value == [0, 1])
      subscription.cancel()
    }

    @Test func stateStreamIteratesLatestThenEveryState() async {
      let reactor = LogReactor()
      reactor.send(.append("a"))
      var iterator = reactor.state.makeAsyncIterator()
      let first = await iterator.next()
      reactor.send(.append("b"))
      reactor.send(.append("c"))
      let second = await iterator.next()
      let third = await iterator.next()
      #expect(first?.entries == ["a"])
      #expect(second?.entries == ["a", "b"])
      #expect(third?.entries == ["a", "b", "c"])
    }

    @Test func valuesStreamSubscribesImmediately() async {
      let reactor = LogReactor()
      let values = reactor.state.values
      reactor.send(.append("a"))
      var iterator = values.makeAsyncIterator()
      #expect(await iterator.next()?.entries == [])
      #expect(await iterator.next()?.entries == ["a"])
    }
  }
}

/// ReactorKit's hook-order reactor: every stage appends its name to a list of strings.
private final class StageLogReactor: Reactor {
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

/// A counter whose state hook shows only even values.
private final class EvenOnlyReactor: Reactor {
  enum Action { case increase }
  struct State: Equatable { var value = 0 }

  let initialState = State()
  let runtime = Runtime()
  private(set) var reducedValues: [Int] = []

  func reduce(state: State, mutation: Action) -> State {
    reducedValues.append(state.value + 1)
    return State(value: state.value + 1)
  }

  func transform(state: Flow<State>) -> Flow<State> { state.filter { $0.value % 2 == 0 } }
}

extension CoreTests.Pipeline {
  @Test func mappingStateHookIsAppliedOnceAndNeverReducedFrom() {
    let reactor = StageLogReactor()
    let (subscription, states) = reactor.recordStates()
    reactor.send(["action"])
    let expected = [
      "action", "transformedAction", "mutation", "transformedMutation", "reduce",
      "transformedState",
    ]
    #expect(states() == [["transformedState"], expected])
    #expect(reactor.currentState == expected)
    subscription.cancel()
  }

  @Test func filteringStateHookHidesStatesWithoutLosingMutations() {
    let reactor = EvenOnlyReactor()
    let (subscription, states) = reactor.recordStates()
    for _ in 0..<5 { reactor.send(.increase) }
    #expect(reactor.reducedValues == [1, 2, 3, 4, 5])
    #expect(states().map(\.value) == [0, 2, 4])
    #expect(reactor.currentState.value == 4)
    reactor.send(.increase)
    #expect(reactor.currentState.value == 6)
    subscription.cancel()
  }

  @Test func accessingTheStateStreamBuildsThePipeline() {
    let reactor = StageLogReactor()
    #expect(reactor.currentState == [])
    _ = reactor.state
    #expect(reactor.currentState == ["transformedState"])
  }
}
