import Clocks
import ReactorCore

/// The Counter reactor from the seeds: loading on, the value change 500 ms later on the
/// injected clock, loading off; an alert pulse when the value reaches its limit.
final class CounterReactor: Reactor {
  enum Action: Equatable {
    case increase
    case decrease
  }

  enum Mutation: Equatable {
    case increaseValue
    case decreaseValue
    case setLoading(Bool)
    case setAlert(String)
  }

  struct State: Equatable {
    var value = 0
    var isLoading = false
    @Pulse var alertMessage: String?
  }

  let initialState = State()
  let runtime = Runtime()
  let clock: any Clock<Duration>
  let limit: Int

  init(clock: any Clock<Duration>, limit: Int = 10) {
    self.clock = clock
    self.limit = limit
  }

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .increase:
      guard currentState.value < limit else { return .just(.setAlert("Limit reached")) }
      return .run { [clock] send in
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
    case .decreaseValue: state.value -= 1
    case .setLoading(let isLoading): state.isLoading = isLoading
    case .setAlert(let message): state.alertMessage = message
    }
    return state
  }
}

/// A reactor whose mutations are its actions: each one adds to a list, so the order in which
/// `reduce` saw them is visible in the state.
final class LogReactor: Reactor {
  enum Action: Equatable, Sendable {
    case append(String)
    case noop
  }

  struct State: Equatable {
    var entries: [String] = []
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    if case .append(let entry) = mutation { state.entries.append(entry) }
    return state
  }
}

/// A monitor that keeps every event as a readable line.
@MainActor
final class MonitorLog<Action: Sendable, Mutation: Sendable, State: Sendable>: ReactorMonitor {
  var lines: [String] = []

  func reactorDidReceive(action: Action, id: Int, origin: Origin) {
    lines.append("action \(id) \(action) from \(origin)")
  }

  func reactorDidStartEffect(_ effect: Int, action: Int, name: String?) {
    lines.append("effect \(effect) started by action \(action)\(name.map { " (\($0))" } ?? "")")
  }

  func reactorDidEndEffect(_ effect: Int, outcome: EffectOutcome) {
    lines.append("effect \(effect) \(outcome)")
  }

  func reactorDidReduce(mutation: Mutation, id: Int, origin: Origin, state: State) {
    lines.append("mutation \(id) \(mutation) from \(origin)")
  }

  func reactorStreamDidEnd(_ name: String, error: String?) {
    lines.append("stream \(name) ended\(error.map { " with \($0)" } ?? "")")
  }
}

/// An error with a fixed description.
struct TestFailure: Error, CustomStringConvertible {
  var description: String
}

extension Reactor {
  /// Records every state this reactor delivers from now on (starting with the replayed one).
  func recordStates() -> (subscription: Subscription, states: () -> [State]) {
    let box = Box<[State]>([])
    let subscription = state.observe { box.value.append($0) }
    return (subscription, { box.value })
  }
}

/// A mutable reference, for collecting values in closures.
@MainActor
final class Box<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}
