import ReactorCore
import Testing

/// A reactor that counts how many times its pipeline was built.
private final class BuildCountingReactor: Reactor {
  typealias Action = Void
  typealias Mutation = Void
  struct State { var count = 0 }

  let initialState = State()
  let runtime = Runtime()
  private(set) var builds = 0

  func transform(action: Flow<Void>) -> Flow<Void> {
    builds += 1
    return action
  }

  func reduce(state: State, mutation: Void) -> State {
    var state = state
    state.count += 1
    return state
  }
}

extension ReactorKitPort {
  /// ReactorKit's `ReactorDispatchTests`: its threads become tasks that reach the reactor on
  /// the main actor, which the compiler enforces.
  @MainActor
  @Suite struct ReactorDispatch {
    @Test func stateStreamIsBuiltOnceWhenManyTasksReachForIt() async {
      let reactor = BuildCountingReactor()
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<100 {
          group.addTask { @MainActor in _ = reactor.state }
        }
      }
      #expect(reactor.builds == 1)
    }

    @Test func actionSentFromAnotherTaskIsProcessedOnTheMainActor() async {
      let reactor = BuildCountingReactor()
      let counts = Box<[Int]>([])
      let subscription = reactor.state.observe { counts.value.append($0.count) }
      await Task.detached { await reactor.send(()) }.value
      #expect(counts.value == [0, 1])
      #expect(reactor.currentState.count == 1)
      subscription.cancel()
    }
  }
}
