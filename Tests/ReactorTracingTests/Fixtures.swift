import Clocks
import Foundation
import ReactorCore
import ReactorExamples
import ReactorTracing

/// A reactor whose effects overlap: each `load` finishes after its own delay, `search` is
/// cancelled by the next one, `fail` throws, and a relay of server pushes is merged into the
/// mutations and a relay of taps into the actions.
final class FeedReactor: Reactor {
  enum Action: Codable, Equatable, Sendable {
    case load(String, delay: Int)
    case search(String)
    case fail
  }

  enum Mutation: Codable, Equatable, Sendable {
    case loaded(String)
    case results(String)
    case pushed(String)
  }

  struct State: Codable, Equatable, Sendable {
    var log: [String] = []
  }

  let initialState = State()
  let runtime = Runtime()
  let clock: TestClock<Duration>
  let pushes = Relay<String>()
  let taps = Relay<Action>()

  init(clock: TestClock<Duration>) {
    self.clock = clock
  }

  func transform(action: Flow<Action>) -> Flow<Action> {
    action.merge(taps.flow(name: "taps"))
  }

  func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
    mutation.merge(pushes.flow(name: "server").map { .pushed($0) })
  }

  func mutate(action: Action) -> Effect<Mutation> {
    let clock = self.clock
    switch action {
    case .load(let name, let delay):
      return .run(name: "load \(name)") { send in
        try await clock.sleep(for: .milliseconds(delay))
        send(.loaded(name))
      }
    case .search(let query):
      return .run(id: "search", cancelInFlight: true, name: "search") { send in
        try await clock.sleep(for: .milliseconds(300))
        send(.results(query))
      }
    case .fail:
      return .run(name: "failing") { _ in
        throw FixtureFailure(description: "network down")
      }
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .loaded(let name): state.log.append("loaded \(name)")
    case .results(let query): state.log.append("results \(query)")
    case .pushed(let message): state.log.append("pushed \(message)")
    }
    return state
  }
}

/// A reactor whose types are not Codable.
final class OpaqueReactor: Reactor {
  enum Action: Sendable {
    case poke(Int)
  }

  struct State: Sendable, Equatable {
    var pokes: [Int] = []
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    if case .poke(let value) = mutation { state.pokes.append(value) }
    return state
  }
}

/// A reactor holding secrets, for redaction.
final class AccountReactor: Reactor {
  enum Action: Codable, Sendable {
    case login(user: String, password: String)
  }

  enum Mutation: Codable, Sendable {
    case setSession(email: String, token: String)
  }

  struct State: Codable, Sendable {
    struct Session: Codable, Sendable {
      var email: String
      var token: String
    }
    var session: Session?
    var attempts = 0
  }

  let initialState = State()
  let runtime = Runtime()

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .login(let user, _):
      .just(.setSession(email: "\(user)@example.com", token: "tok-\(user)-secret"))
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setSession(let email, let token):
      state.session = State.Session(email: email, token: token)
      state.attempts += 1
    }
    return state
  }
}

/// A reactor whose state holds 1,000 integers; each mutation changes one of them.
final class LargeStateReactor: Reactor {
  enum Action: Codable, Sendable {
    case set(index: Int, value: Int)
  }

  struct State: Codable, Sendable {
    var values = [Int](repeating: 0, count: 1000)
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    switch mutation {
    case .set(let index, let value): state.values[index] = value
    }
    return state
  }
}

/// A counter whose state also holds about 20 KB of text its actions never change: every state
/// `reduce` returns shares the text's storage with the one before (copy-on-write).
final class SharedTextReactor: Reactor {
  enum Action: Codable, Sendable {
    case increase
  }

  struct State: Codable, Sendable {
    var value = 0
    var notes = (0..<200).map { String($0) + String(repeating: "x", count: 96) }
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    state.value += 1
    return state
  }
}

/// An error with a fixed description.
struct FixtureFailure: Error, CustomStringConvertible {
  var description: String
}

extension TraceEvent {
  /// A short readable form of the event for assertions: `action 1 increase (sent)`.
  var summary: String {
    switch kind {
    case .action(let action):
      let source =
        switch action.source {
        case .sent: "sent"
        case .stream(let name): "stream \(name)"
        }
      return "action \(action.id) \(action.label) (\(source))"
    case .effectStarted(let start):
      return "effect \(start.effect) started by action \(start.action)"
    case .effectEnded(let end):
      return "effect \(end.effect) \(end.outcome)"
    case .mutation(let mutation):
      let cause =
        switch mutation.cause {
        case .action(let action): "action \(action)"
        case .effect(let effect, let action): "effect \(effect) of action \(action)"
        case .stream(let name): "stream \(name)"
        }
      return "mutation \(mutation.id) \(mutation.label) from \(cause)"
    case .streamEnded(let end):
      return "stream \(end.stream) ended"
    case .jump(let jump):
      return "jump to event \(jump.target) from \(jump.external ?? "outside")"
    case .gap(let gap):
      return "gap of \(gap.droppedEvents)"
    case .end(let end):
      return "end \(end.observedEvents) observed, \(end.droppedEvents) dropped"
    }
  }
}

/// A new empty directory for one test, removed when the test ends.
struct TemporaryDirectory: ~Copyable {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("reactor-trace-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  func file(_ name: String) -> String { path + "/" + name }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// The bytes of a file.
func contents(of path: String) throws -> [UInt8] {
  Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Writes bytes to a file.
func write(_ bytes: [UInt8], to path: String) throws {
  try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// A mutable reference, for collecting values in closures.
@MainActor
final class Box<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}
