import Clocks
import ReactorCore
import ReactorTestSupport
import Testing

/// ReactorKit's re-entrancy reactor: `.a` and `.b` each produce an "enter" and an "exit"
/// mutation synchronously; hooks let a test send `.b` from `mutate`, `reduce`, or a hook.
private final class EnterExitReactor: Reactor {
  enum Action: Equatable { case a, b, c }
  enum Mutation {
    case enter(Action)
    case exit(Action)
  }
  struct State: Equatable { var log: [String] = [] }

  let initialState = State()
  let runtime = Runtime()
  /// Called by `mutate` before it returns, with the action being mutated.
  var onMutate: (Action) -> Void = { _ in }
  /// Called by `reduce` with each mutation.
  var onReduce: (Mutation) -> Void = { _ in }
  /// Called by the action hook with each action.
  var onActionHook: (Action) -> Void = { _ in }

  func transform(action: Flow<Action>) -> Flow<Action> {
    action.map { [unowned self] action in
      onActionHook(action)
      return action
    }
  }

  /// When set, `.a` sends its mutations after sleeping a second on this clock.
  var asyncClock: TestClock<Duration>?

  func mutate(action: Action) -> Effect<Mutation> {
    onMutate(action)
    if action == .a, let clock = asyncClock {
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        send(.enter(action))
        send(.exit(action))
      }
    }
    return .sequence([.enter(action), .exit(action)])
  }

  func reduce(state: State, mutation: Mutation) -> State {
    onReduce(mutation)
    var state = state
    switch mutation {
    case .enter(let action): state.log.append("enter \(action)")
    case .exit(let action): state.log.append("exit \(action)")
    }
    return state
  }
}

extension CoreTests {
  /// ReactorKit's ordering of re-entrant actions: queued, and started only once every
  /// mutation the current action produced synchronously has reached every observer.
  @MainActor
  @Suite struct ReentrancyOrder {
    @Test func actionSentFromAnObserverStartsAfterTheCurrentActionsMutations() {
      let reactor = EnterExitReactor()
      let observed = Box<[[String]]>([])
      var didSend = false
      let subscription = reactor.state.observe { [unowned reactor] state in
        observed.value.append(state.log)
        if !didSend, state.log.contains("enter a") {
          didSend = true
          reactor.send(.b)
        }
      }
      reactor.send(.a)
      #expect(reactor.currentState.log == ["enter a", "exit a", "enter b", "exit b"])
      #expect(observed.value.last == ["enter a", "exit a", "enter b", "exit b"])
      #expect(observed.value.count == 5)
      subscription.cancel()
    }

    @Test func actionSentFromReduceStartsAfterTheCurrentActionsMutations() {
      let reactor = EnterExitReactor()
      var didSend = false
      reactor.onReduce = { [unowned reactor] mutation in
        if !didSend, case .enter(.a) = mutation {
          didSend = true
          reactor.send(.b)
        }
      }
      reactor.send(.a)
      #expect(reactor.currentState.log == ["enter a", "exit a", "enter b", "exit b"])
    }

    @Test func actionSentFromMutateStartsAfterTheCurrentActionsMutations() {
      let reactor = EnterExitReactor()
      reactor.onMutate = { [unowned reactor] action in
        if action == .a { reactor.send(.b) }
      }
      reactor.send(.a)
      #expect(reactor.currentState.log == ["enter a", "exit a", "enter b", "exit b"])
    }

    @Test func actionSentFromATransformHookStartsAfterTheCurrentAction() {
      let reactor = EnterExitReactor()
      reactor.onActionHook = { [unowned reactor] action in
        if action == .a { reactor.send(.b) }
      }
      reactor.send(.a)
      #expect(reactor.currentState.log == ["enter a", "exit a", "enter b", "exit b"])
    }

    @Test func actionsChainedFromObserversRunOneAfterAnother() {
      let reactor = EnterExitReactor()
      let subscription = reactor.state.observe { [unowned reactor] state in
        switch state.log.last {
        case "enter a": reactor.send(.b)
        case "enter b": reactor.send(.c)
        default: break
        }
      }
      reactor.send(.a)
      #expect(
        reactor.currentState.log == [
          "enter a", "exit a", "enter b", "exit b", "enter c", "exit c",
        ])
      subscription.cancel()
    }

    @Test func actionSentDuringAnAsyncMutationStartsAfterThatMutationOnly() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = EnterExitReactor()
        reactor.asyncClock = clock
        let subscription = reactor.state.observe { [unowned reactor] state in
          if state.log.last == "enter a" { reactor.send(.b) }
        }
        reactor.send(.a)
        #expect(reactor.currentState.log == [])
        await clock.advance(by: .seconds(1))
        // Mutations sent after a suspension arrive one by one; the queued action runs after
        // the one being delivered, not after the rest of the effect.
        #expect(reactor.currentState.log == ["enter a", "enter b", "exit b", "exit a"])
        subscription.cancel()
      }
    }

    @Test func actionSentFromAPulseObserverStartsAfterTheCurrentAction() {
      let reactor = PulsingReactor()
      let subscription = reactor.pulse(\.$message).observe { [unowned reactor] message in
        if message == "first" { reactor.send(.say("second")) }
      }
      reactor.send(.sayTwice("first"))
      #expect(reactor.currentState.log == ["first", "first again", "second", "second again"])
      subscription.cancel()
    }
  }
}

/// A reactor whose action assigns a pulse, then appends a second entry.
private final class PulsingReactor: Reactor {
  enum Action {
    case say(String)
    case sayTwice(String)
  }
  enum Mutation {
    case message(String)
    case log(String)
  }
  struct State {
    @Pulse var message = ""
    var log: [String] = []
  }

  let initialState = State()
  let runtime = Runtime()

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .say(let text), .sayTwice(let text):
      return .sequence([.message(text), .log(text), .log("\(text) again")])
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .message(let text): state.message = text
    case .log(let text): state.log.append(text)
    }
    return state
  }
}
