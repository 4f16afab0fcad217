import ReactorCore

/// The counter of the counter-concat scenario and of the trace recipes: each action becomes
/// three mutations known at once (loading on, the change, loading off), with `.sequence`.
final class CounterConcatReactor: Reactor {
  enum Action: Codable, Equatable, Sendable {
    case increase
  }

  enum Mutation: Codable, Equatable, Sendable {
    case setLoading(Bool)
    case increaseValue
  }

  struct State: Codable, Equatable, Sendable {
    var value = 0
    var isLoading = false
  }

  let initialState = State()
  let runtime = Runtime()

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .increase: return .sequence([.setLoading(true), .increaseValue, .setLoading(false)])
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setLoading(let isLoading): state.isLoading = isLoading
    case .increaseValue: state.value += 1
    }
    return state
  }
}
