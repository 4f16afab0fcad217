import Foundation
import ReactorCore
import ReactorReplay
import ReactorReplayTesting
import ReactorTracing
import Testing

/// ReactorExamples.CounterReactor after an edit its committed trace survives.
///
/// A `reset` mutation and a `resetCount` field with a default. Only `reduce` matters to
/// this replay.
final class ResettableCounterReactor: Reactor {
  enum Action: Codable, Sendable { case increase, decrease, reset }
  enum Mutation: Codable, Sendable {
    case increaseValue, decreaseValue
    case setLoading(Bool)
    case setAlert(String)
    case reset
  }
  struct State: Codable, Sendable {
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

@Suite struct EvolvedCounterTests {
  private let counter = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Traces/counter.trace.jsonl").path

  @MainActor @Test func theCommittedCounterTraceStillPassesExpectReplay() {
    let result = expectReplay(
      counter, reduces: ResettableCounterReactor(), allowingReactorMismatch: true, strict: true)
    #expect(result?.stepsChecked == 10)
    #expect(
      result?.schemaChanges.map(\.description) == [
        "Action: case 'reset' was added", "Mutation: case 'reset' was added",
        "State: field 'resetCount' was added",
      ])
  }
}
