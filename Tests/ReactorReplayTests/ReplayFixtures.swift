import Clocks
import Foundation
import ReactorCore
import ReactorTracing

/// The Counter reactor with Codable types: loading on, the value change 500 ms later on the
/// injected clock, loading off.
final class ReplayCounterReactor: Reactor {
  enum Action: Codable, Equatable, Sendable {
    case increase
    case decrease
  }

  enum Mutation: Codable, Equatable, Sendable {
    case increaseValue
    case decreaseValue
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
  let clock: any Clock<Duration>
  /// What `increaseValue` adds: 1, or something else to make replays diverge.
  let step: Int
  /// Whether `decrease` skips the loading mutations, to make mutate replays diverge.
  let isSkippingLoading: Bool

  init(clock: any Clock<Duration>, step: Int = 1, isSkippingLoading: Bool = false) {
    self.clock = clock
    self.step = step
    self.isSkippingLoading = isSkippingLoading
  }

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .increase:
      return .run(name: "increase") { [clock] send in
        send(.setLoading(true))
        try await clock.sleep(for: .milliseconds(500))
        send(.increaseValue)
        send(.setLoading(false))
      }
    case .decrease:
      if isSkippingLoading { return .just(.decreaseValue) }
      return .sequence([.setLoading(true), .decreaseValue, .setLoading(false)])
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .increaseValue: state.value += step
    case .decreaseValue: state.value -= 1
    case .setLoading(let isLoading): state.isLoading = isLoading
    case .setAlert(let message): state.alertMessage = message
    }
    return state
  }
}

/// The Counter with one more mutation case and one more state field with a default, as if
/// the code changed compatibly after recording.
final class ReplayResettableCounterReactor: Reactor {
  typealias Action = ReplayCounterReactor.Action

  enum Mutation: Codable, Sendable {
    case increaseValue
    case decreaseValue
    case setLoading(Bool)
    case setAlert(String)
    case reset
  }

  struct State: Codable, Equatable, Sendable {
    var value = 0
    var isLoading = false
    @Pulse var alertMessage: String?
    var resetCount = 0
  }

  let initialState = State()
  let runtime = Runtime()

  func mutate(action: Action) -> Effect<Mutation> { .none }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .increaseValue: state.value += 1
    case .decreaseValue: state.value -= 1
    case .setLoading(let isLoading): state.isLoading = isLoading
    case .setAlert(let message): state.alertMessage = message
    case .reset:
      state.value = 0
      state.resetCount += 1
    }
    return state
  }
}

/// The Counter whose `increaseValue` was renamed `incrementValue`: a case the trace uses.
final class ReplayRenamedCounterReactor: Reactor {
  typealias Action = ReplayCounterReactor.Action

  enum Mutation: Codable, Sendable {
    case incrementValue
    case decreaseValue
    case setLoading(Bool)
    case setAlert(String)
  }

  typealias State = ReplayCounterReactor.State

  let initialState = State()
  let runtime = Runtime()

  func mutate(action: Action) -> Effect<Mutation> { .none }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .incrementValue: state.value += 1
    case .decreaseValue: state.value -= 1
    case .setLoading(let isLoading): state.isLoading = isLoading
    case .setAlert(let message): state.alertMessage = message
    }
    return state
  }
}

/// The Counter whose `value` became a `Double`: a recorded field's type changed.
final class ReplayRetypedCounterReactor: Reactor {
  typealias Action = ReplayCounterReactor.Action
  typealias Mutation = ReplayCounterReactor.Mutation

  struct State: Codable, Equatable, Sendable {
    var value = 0.0
    var isLoading = false
    @Pulse var alertMessage: String?
  }

  let initialState = State()
  let runtime = Runtime()

  func mutate(action: Action) -> Effect<Mutation> { .none }

  func reduce(state: State, mutation: Mutation) -> State { state }
}

/// A reactor holding a secret token, for redaction.
final class ReplayAccountReactor: Reactor {
  enum Action: Codable, Sendable {
    case login(user: String)
  }

  enum Mutation: Codable, Sendable {
    case setSession(email: String, token: String)
  }

  struct State: Codable, Sendable, Equatable {
    var email: String?
    var token: String?
    var attempts = 0
  }

  let initialState = State()
  let runtime = Runtime()

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .login(let user):
      .just(.setSession(email: "\(user)@example.com", token: "tok-\(user)-secret"))
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setSession(let email, let token):
      state.email = email
      state.token = token
      state.attempts += 1
    }
    return state
  }
}

/// Records the Counter on a test clock.
///
/// Sends `increase`, waits 500 ms, `decrease`, 100 ms, `increase`, 500 ms. Call on the main
/// serial executor.
@MainActor
func recordCounterTrace() async throws -> Trace {
  let clock = TestClock()
  let reactor = ReplayCounterReactor(clock: clock)
  let recorder = try InMemoryTraceRecorder(recording: reactor, options: TraceOptions(clock: clock))
  reactor.send(.increase)
  await clock.advance(by: .milliseconds(500))
  reactor.send(.decrease)
  await clock.advance(by: .milliseconds(100))
  reactor.send(.increase)
  await clock.advance(by: .milliseconds(500))
  recorder.stop()
  return recorder.trace
}

/// The trace's bytes with the first occurrence of `original` replaced by `replacement`.
func editing(_ trace: Trace, replacing original: String, with replacement: String) throws
  -> [UInt8]
{
  let text = String(decoding: trace.serialized, as: UTF8.self)
  guard let range = text.range(of: original) else { throw FixtureError.notFound(original) }
  return Array(text.replacingCharacters(in: range, with: replacement).utf8)
}

/// An edit that could not be made.
enum FixtureError: Error {
  case notFound(String)
}
