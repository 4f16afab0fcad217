import ReactorCore

/// A test-only copy of the example Counter whose `reduce` has a bug.
///
/// `decreaseValue` subtracts two. The test generated from the Counter's trace must fail against it.
final class BrokenCounterReactor: Reactor {
  enum Action: Codable, Equatable, Sendable { case increase, decrease }
  enum Mutation: Codable, Equatable, Sendable {
    case increaseValue, decreaseValue
    case setLoading(Bool)
    case setAlert(String)
  }
  struct State: Codable, Equatable, Sendable {
    var value = 0
    var isLoading = false
    @Pulse var alertMessage: String?
  }

  let initialState = State()
  let runtime = Runtime()
  private let clock: any Clock<Duration>
  private let limit: Int

  init(clock: any Clock<Duration>, limit: Int) {
    self.clock = clock
    self.limit = limit
  }

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .increase:
      guard currentState.value < limit else { return .just(.setAlert("Limit reached")) }
      return .run(name: "increase") { [clock] send in
        send(.setLoading(true))
        try await clock.sleep(for: .milliseconds(500))
        send(.increaseValue)
        send(.setLoading(false))
      }
    case .decrease:
      return .sequence([.setLoading(true), .decreaseValue, .setLoading(false)])
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .increaseValue: state.value += 1
    case .decreaseValue: state.value -= 2  // The bug.
    case .setLoading(let isLoading): state.isLoading = isLoading
    case .setAlert(let message): state.alertMessage = message
    }
    return state
  }
}
