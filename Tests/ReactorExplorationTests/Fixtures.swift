import ReactorCore

/// A turnstile whose whole graph is known: a coin unlocks it 100 ms later, a push locks it.
///
/// Two states, four transitions: coin and push in each state.
final class TurnstileReactor: Reactor {
  enum Action: Codable, Equatable, Sendable { case coin, push }
  enum Mutation: Codable, Equatable, Sendable { case unlock, lock }
  struct State: Codable, Equatable, Sendable { var isLocked = true }

  let initialState = State()
  let runtime = Runtime()
  private let clock: any Clock<Duration>

  init(clock: any Clock<Duration>) { self.clock = clock }

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .coin:
      .run { [clock] send in
        try await clock.sleep(for: .milliseconds(100))
        send(.unlock)
      }
    case .push: .just(.lock)
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    state.isLocked = mutation == .lock
    return state
  }
}

/// A lock with a seeded bug: entering 3, 1, 2 opens it, which its invariant forbids.
///
/// No script of fewer than three presses opens it.
final class CombinationLockReactor: Reactor {
  enum Action: Codable, Equatable, Sendable { case press(Int) }
  struct State: Codable, Equatable, Sendable {
    var entered: [Int] = []
    var isOpen = false
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    guard case .press(let digit) = mutation else { return state }
    state.entered = Array((state.entered + [digit]).suffix(3))
    state.isOpen = state.entered == [3, 1, 2]
    return state
  }
}
