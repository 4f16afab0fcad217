import ReactorCore

/// A counter whose state also holds a large text, unchanged by its actions: the app of the
/// live latency row with a large state (a snapshot of it is the size of the text, each diff a
/// few bytes).
final class LargeStateCounterReactor: Reactor {
  enum Action: Codable, Sendable {
    case increase
    case decrease
  }

  enum Mutation: Codable, Sendable {
    case add(Int)
  }

  struct State: Codable, Sendable {
    var value = 0
    /// About `stateBytes` bytes of text, in lines of 100 characters.
    var notes: [String]
  }

  let runtime = Runtime()
  let initialState: State

  /// A counter whose state holds about `stateBytes` bytes of text.
  init(stateBytes: Int) {
    let line = String(repeating: "x", count: 96)
    initialState = State(
      notes: (0..<max(1, stateBytes / 100)).map { String($0 % 10_000) + line })
  }

  func mutate(action: Action) -> Effect<Mutation> {
    .just(.add(action == .increase ? 1 : -1))
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .add(let amount): state.value += amount
    }
    return state
  }
}
