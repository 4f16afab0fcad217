import ReactorCore

/// A row of a list in the session tests: not `Codable` itself, with a `Codable` state.
///
/// Its state is a title and a done flag that each action toggles. Lists hold it in their
/// state, as references or beside a copy of its state.
@MainActor
final class TitledRowReactor: Reactor {
  enum Action: Codable, Sendable {
    case toggle
  }

  struct State: Codable, Equatable, Sendable {
    var title: String
    var isDone = false
  }

  let initialState: State
  let runtime = Runtime()

  init(title: String) {
    initialState = State(title: title)
  }

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    state.isDone.toggle()
    return state
  }
}
