import ReactorCore
import Testing

/// Two actions, each producing an "enter" and an "exit" mutation at once; `reduce` can send
/// `.b` the first time it sees "enter A".
private final class EnterExitReactor: Reactor {
  enum Action { case a, b }
  enum Mutation { case enterA, exitA, enterB, exitB }
  struct State { var log: [String] = [] }

  let initialState = State()
  let runtime = Runtime()
  let sendsFromReduce: Bool
  private var didSendFromReduce = false

  init(sendsFromReduce: Bool = false) { self.sendsFromReduce = sendsFromReduce }

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .a: return .sequence([.enterA, .exitA])
    case .b: return .sequence([.enterB, .exitB])
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .enterA:
      state.log.append("enter A")
      if sendsFromReduce, !didSendFromReduce {
        didSendFromReduce = true
        send(.b)
      }
    case .exitA: state.log.append("exit A")
    case .enterB: state.log.append("enter B")
    case .exitB: state.log.append("exit B")
    }
    return state
  }
}

/// A router: `dismiss` clears the route, `present` sets it.
private final class RouteReactor: Reactor {
  enum Action {
    case dismiss
    case present(String)
  }
  enum Mutation { case setRoute(String?) }
  struct State { var route: String? = "initial" }

  let initialState = State()
  let runtime = Runtime()

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .dismiss: return .just(.setRoute(nil))
    case .present(let route): return .just(.setRoute(route))
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    guard case .setRoute(let route) = mutation else { return state }
    var state = state
    state.route = route
    return state
  }
}

extension ReactorKitPort {
  /// ReactorKit's `ReactorReentrancyTests`.
  @MainActor
  @Suite struct ReactorReentrancy {
    @Test func actionFromAStateObserverWaitsForTheCurrentAction() {
      let reactor = EnterExitReactor()
      let didSend = Box(false)
      let subscription = reactor.state.observe { [unowned reactor] state in
        if !didSend.value, state.log.contains("enter A") {
          didSend.value = true
          reactor.send(.b)
        }
      }
      reactor.send(.a)
      #expect(reactor.currentState.log == ["enter A", "exit A", "enter B", "exit B"])
      subscription.cancel()
    }

    @Test func actionFromReduceDoesNotRecurse() {
      let reactor = EnterExitReactor(sendsFromReduce: true)
      let subscription = reactor.state.observe { _ in }
      reactor.send(.a)
      #expect(reactor.currentState.log == ["enter A", "exit A", "enter B", "exit B"])
      subscription.cancel()
    }

    @Test func dismissThenPresentEndsOnTheNewRoute() {
      let reactor = RouteReactor()
      let didPresent = Box(false)
      let subscription = reactor.state.observe { [unowned reactor] state in
        if !didPresent.value, state.route == nil {
          didPresent.value = true
          reactor.send(.present("next"))
        }
      }
      reactor.send(.dismiss)
      #expect(reactor.currentState.route == "next")
      subscription.cancel()
    }
  }
}
