import Clocks
import ReactorCore
import ReactorExamples

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
