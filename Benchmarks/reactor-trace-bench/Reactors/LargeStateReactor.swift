import ReactorCore

/// The reactor of the state-large scenario, as ReactorKit's was measured: its state holds
/// 1,000 Ints and a counter; each mutation changes one of the Ints and counts itself.
final class LargeStateReactor: Reactor {
  /// How many Ints the state holds.
  nonisolated static let width = 1_000

  enum Action: Codable, Equatable, Sendable {
    case increment(Int)
  }

  enum Mutation: Codable, Equatable, Sendable {
    case increment(Int)
  }

  struct State: Codable, Equatable, Sendable {
    var values = [Int](repeating: 0, count: LargeStateReactor.width)
    var counter = 0
  }

  let initialState = State()
  let runtime = Runtime()

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .increment(let index): return .just(.increment(index))
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .increment(let index):
      state.values[index] += 1
      state.counter += 1
    }
    return state
  }
}
