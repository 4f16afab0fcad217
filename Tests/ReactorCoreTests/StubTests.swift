import ReactorCore
import Testing

/// A reactor that counts calls to `mutate` and `reduce`.
private final class CountingReactor: Reactor {
  enum Action: Equatable {
    case increase
    case reset
  }

  struct State: Equatable { var value = 0 }

  let initialState = State()
  let runtime = Runtime()
  var mutateCalls = 0
  var reduceCalls = 0

  func mutate(action: Action) -> Effect<Action> {
    mutateCalls += 1
    return .just(action)
  }

  func reduce(state: State, mutation: Action) -> State {
    reduceCalls += 1
    switch mutation {
    case .increase: return State(value: state.value + 1)
    case .reset: return State()
    }
  }
}

extension CoreTests {
  @MainActor
  @Suite struct Stubbing {
    @Test func stubRecordsActionsInOrder() {
      let reactor = CountingReactor()
      reactor.isStubEnabled = true
      reactor.send(.increase)
      reactor.send(.reset)
      reactor.send(.increase)
      #expect(reactor.stub.actions == [.increase, .reset, .increase])
    }

    @Test func mutateAndReduceNeverRunWhileStubbed() {
      let reactor = CountingReactor()
      reactor.isStubEnabled = true
      let (subscription, _) = reactor.recordStates()
      reactor.send(.increase)
      reactor.stub.state = .init(value: 7)
      #expect(reactor.mutateCalls == 0)
      #expect(reactor.reduceCalls == 0)
      subscription.cancel()
    }

    @Test func settingTheStubStateEmitsEvenWhenEqualAndUpdatesCurrentState() {
      let reactor = CountingReactor()
      reactor.isStubEnabled = true
      let (subscription, states) = reactor.recordStates()
      reactor.stub.state = .init(value: 3)
      reactor.stub.state = .init(value: 3)
      #expect(states().map(\.value) == [0, 3, 3])
      #expect(reactor.currentState.value == 3)
      subscription.cancel()
    }

    @Test func creatingTheStubResetsCurrentStateToTheInitialState() {
      let reactor = CountingReactor()
      reactor.send(.increase)
      reactor.send(.increase)
      #expect(reactor.currentState.value == 2)
      reactor.isStubEnabled = true
      _ = reactor.stub
      #expect(reactor.currentState == reactor.initialState)
    }

    @Test func disablingTheStubResumesThePipeline() {
      let reactor = CountingReactor()
      reactor.isStubEnabled = true
      reactor.send(.increase)
      reactor.isStubEnabled = false
      reactor.send(.increase)
      #expect(reactor.currentState.value == 1)
      #expect(reactor.stub.actions == [.increase])
    }
  }
}
