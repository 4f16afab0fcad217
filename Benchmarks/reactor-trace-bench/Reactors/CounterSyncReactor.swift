import ReactorCore

/// The counter of the counter-sync, fanout and stub scenarios: each action becomes one
/// mutation, returned with `.just`.
final class CounterSyncReactor: Reactor {
  enum Action: Codable, Equatable, Sendable {
    case increase
  }

  enum Mutation: Codable, Equatable, Sendable {
    case increaseValue
  }

  struct State: Codable, Equatable, Sendable {
    var value = 0
  }

  let initialState = State()
  let runtime = Runtime()

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .increase: return .just(.increaseValue)
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .increaseValue: state.value += 1
    }
    return state
  }
}
