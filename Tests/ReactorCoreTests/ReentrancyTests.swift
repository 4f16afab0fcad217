import ReactorCore
import Testing

/// A reactor whose `reduce` sends a follow-up action, and counts how deep `reduce` nests.
private final class ChainingReactor: Reactor {
  enum Action: Equatable {
    case append(String)
    case appendThenFollow(String, follow: String)
  }

  struct State: Equatable { var entries: [String] = [] }

  let initialState = State()
  let runtime = Runtime()
  private var reduceDepth = 0
  private(set) var maximumReduceDepth = 0

  func reduce(state: State, mutation: Action) -> State {
    reduceDepth += 1
    maximumReduceDepth = max(maximumReduceDepth, reduceDepth)
    defer { reduceDepth -= 1 }
    var state = state
    switch mutation {
    case .append(let entry):
      state.entries.append(entry)
    case .appendThenFollow(let entry, let follow):
      state.entries.append(entry)
      send(.append(follow))
      // Still the previous state: the follow-up has not run yet.
      state.entries.append("reduce saw \(currentState.entries.count)")
    }
    return state
  }
}

extension CoreTests {
  @MainActor
  @Suite struct Reentrancy {
    @Test func actionSentFromReduceIsQueuedAfterTheCurrentEmission() {
      let reactor = ChainingReactor()
      let (subscription, states) = reactor.recordStates()
      reactor.send(.appendThenFollow("a", follow: "b"))
      #expect(reactor.currentState.entries == ["a", "reduce saw 0", "b"])
      #expect(states().map(\.entries) == [[], ["a", "reduce saw 0"], ["a", "reduce saw 0", "b"]])
      #expect(reactor.maximumReduceDepth == 1)
      subscription.cancel()
    }

    @Test func actionSentFromAnObserverReachesEveryObserverInTheSameOrder() {
      let reactor = LogReactor()
      let first = Box<[[String]]>([])
      let second = Box<[[String]]>([])
      let sender = reactor.state.observe { [unowned reactor] state in
        first.value.append(state.entries)
        if state.entries == ["a"] { reactor.send(.append("b")) }
      }
      let listener = reactor.state.observe { second.value.append($0.entries) }
      reactor.send(.append("a"))
      #expect(first.value == [[], ["a"], ["a", "b"]])
      #expect(second.value == [[], ["a"], ["a", "b"]])
      sender.cancel()
      listener.cancel()
    }

    @Test func severalReentrantActionsAreProcessedFirstInFirstOut() {
      let reactor = LogReactor()
      let subscription = reactor.state.observe { [unowned reactor] state in
        if state.entries == ["start"] {
          reactor.send(.append("1"))
          reactor.send(.append("2"))
          reactor.send(.append("3"))
        }
        if state.entries == ["start", "1"] { reactor.send(.append("after 1")) }
      }
      reactor.send(.append("start"))
      #expect(reactor.currentState.entries == ["start", "1", "2", "3", "after 1"])
      subscription.cancel()
    }

    @Test func actionSentWhileReplayingToANewObserverIsQueued() {
      let reactor = LogReactor()
      let seen = Box<[[String]]>([])
      let subscription = reactor.state.observe { [unowned reactor] state in
        seen.value.append(state.entries)
        if state.entries.isEmpty { reactor.send(.append("from replay")) }
      }
      #expect(seen.value == [[], ["from replay"]])
      subscription.cancel()
    }
  }
}
