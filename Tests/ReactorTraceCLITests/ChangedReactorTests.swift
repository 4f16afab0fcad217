import Clocks
import Foundation
import ReactorCore
import ReactorReplay
import ReactorTracing
import Synchronization
import Testing

@testable import ReactorTraceCLI

// Test-only copies of ReactorExamples.CounterReactor, changed as the code of an app changes
// after its traces were recorded.

/// The Counter with a new Mutation case and two new State fields.
///
/// One field has a default, one is optional. `increaseValue` adds `step`, which is 1 by
/// default: the same run.
final class EvolvedCounterReactor: Reactor {
  enum Action: Codable, Equatable, Sendable { case increase, decrease }
  enum Mutation: Codable, Equatable, Sendable {
    case increaseValue, decreaseValue
    case setLoading(Bool)
    case setAlert(String)
    case reset
  }
  struct State: Codable, Equatable, Sendable {
    var value = 0
    var isLoading = false
    @Pulse var alertMessage: String?
    var step = 1
    var lastReset: String?
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
    case .increaseValue: state.value += state.step
    case .decreaseValue: state.value -= 1
    case .setLoading(let isLoading): state.isLoading = isLoading
    case .setAlert(let message): state.alertMessage = message
    case .reset:
      state.value = 0
      state.lastReset = "now"
    }
    return state
  }
}

/// The Counter whose `increaseValue` was renamed `incrementValue`, a case its traces use; and
/// whose `increase` adds `step`, so that a re-recording differs.
final class RenamedCounterReactor: Reactor {
  enum Action: Codable, Equatable, Sendable { case increase, decrease }
  enum Mutation: Codable, Equatable, Sendable {
    case incrementValue, decreaseValue
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
  private let step: Int

  init(clock: any Clock<Duration>, limit: Int, step: Int = 1) {
    self.clock = clock
    self.limit = limit
    self.step = step
  }

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .increase:
      guard currentState.value < limit else { return .just(.setAlert("Limit reached")) }
      return .run(name: "increase") { [clock] send in
        send(.setLoading(true))
        try await clock.sleep(for: .milliseconds(500))
        send(.incrementValue)
        send(.setLoading(false))
      }
    case .decrease:
      return .sequence([.setLoading(true), .decreaseValue, .setLoading(false)])
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .incrementValue: state.value += step
    case .decreaseValue: state.value -= 1
    case .setLoading(let isLoading): state.isLoading = isLoading
    case .setAlert(let message): state.alertMessage = message
    }
    return state
  }
}

/// Lines a command wrote, kept for the test.
final class CapturedOutput: TextOutput, Sendable {
  private let lines = Mutex<[String]>([])

  func write(_ line: String) {
    lines.withLock { $0.append(line) }
  }

  var all: [String] { lines.withLock { $0 } }
}

@MainActor
@Suite("The committed traces against changed reactors")
struct ChangedReactorTests {
  private let counter = repositoryRoot + "/Traces/counter.trace.jsonl"

  private var registry: ReactorRegistry {
    var registry = ReactorRegistry()
    registry.register(EvolvedCounterReactor.self) { context in
      EvolvedCounterReactor(clock: context.clock, limit: context.integer("limit") ?? 10)
    }
    registry.register(RenamedCounterReactor.self) { context in
      RenamedCounterReactor(clock: context.clock, limit: context.integer("limit") ?? 10)
    }
    return registry
  }

  private func replay(
    _ path: String, as reactor: Any.Type, mode: ReactorTraceCommand.Replay.Mode
  ) async -> (code: Int32, output: [String]) {
    let output = CapturedOutput()
    let code = await ReactorRegistry.$current.withValue(registry) {
      await ReplayRequest(
        trace: path, mode: mode, reactor: String(reflecting: reactor), steps: false,
        stateAt: nil, json: false
      ).execute(output: output)
    }
    return (code, output.all)
  }

  @Test(arguments: [ReactorTraceCommand.Replay.Mode.reduce, .mutate])
  func theCounterTraceReplaysThroughACopyWithANewCaseAndNewStateFields(
    mode: ReactorTraceCommand.Replay.Mode
  ) async {
    let (code, output) = await replay(counter, as: EvolvedCounterReactor.self, mode: mode)
    #expect(code == 0, "\(output)")
    #expect(output.last?.hasPrefix("match: ") == true)
  }

  @Test func theLibraryNotesTheChangesTheTraceSurvives() throws {
    let result = try ReduceReplay.run(
      path: counter, through: EvolvedCounterReactor(clock: ContinuousClock(), limit: 2),
      allowingReactorMismatch: true)
    #expect(result.isMatch)
    #expect(
      result.schemaChanges.map(\.description) == [
        "Mutation: case 'reset' was added", "State: field 'lastReset' was added",
        "State: field 'step' was added",
      ])
  }

  @Test(arguments: [ReactorTraceCommand.Replay.Mode.reduce, .mutate])
  func aRenamedCaseTheTraceUsesIsNamedAtItsFirstEvent(
    mode: ReactorTraceCommand.Replay.Mode
  ) async {
    let (code, _) = await replay(counter, as: RenamedCounterReactor.self, mode: mode)
    #expect(code == 2)
    // The message itself: the library's error, checked in ReplayCommandTests end to end and
    // here through the library.
    #expect(
      throws: ReplayError.changedCase(
        line: 5, sequence: 4, event: "mutation increaseValue",
        changes: [SchemaChange(path: "Mutation", kind: .caseRemoved("increaseValue"))],
        addedCases: ["incrementValue"])
    ) {
      try ReduceReplay.run(
        path: counter, through: RenamedCounterReactor(clock: ContinuousClock(), limit: 2),
        allowingReactorMismatch: true)
    }
    #expect(
      ReplayError.changedCase(
        line: 5, sequence: 4, event: "mutation increaseValue",
        changes: [SchemaChange(path: "Mutation", kind: .caseRemoved("increaseValue"))],
        addedCases: ["incrementValue"]
      ).description
        == "line 5 (seq 4): mutation increaseValue uses a case that changed since the "
        + "recording: Mutation: case 'increaseValue' was removed (cases added since: "
        + "'incrementValue')")
  }

  @Test func rerecordThroughAChangedReactorWritesATraceThatReplaysAndNamesTheFirstDifference()
    async throws
  {
    let scratch = try ScratchDirectory()
    let output = scratch.file("counter.trace.jsonl")
    var registry = ReactorRegistry()
    registry.register(RenamedCounterReactor.self) { context in
      RenamedCounterReactor(clock: context.clock, limit: context.integer("limit") ?? 10, step: 2)
    }
    let name = String(reflecting: RenamedCounterReactor.self)
    let report = CapturedOutput()
    let code = await ReactorRegistry.$current.withValue(registry) {
      await RerecordRequest(
        trace: counter, output: output, reactor: name, settle: .seconds(10)
      ).execute(output: report)
    }
    #expect(code == 0)
    // Steps of 2 reach the limit of 2 at once: the later increases only alert.
    #expect(report.all.first == "wrote \(output): 15 events from 4 actions re-sent to \(name)")
    let summary = try #require(report.all.last)
    #expect(
      summary.hasPrefix(
        "2 events added, 6 removed, 5 changed; first: the traces differ at event 4: "
          + "mutation increaseValue against incrementValue\nstate (first → second):\n"
          + "  value: 1 → 2"))

    let replayed = CapturedOutput()
    let replayCode = await ReactorRegistry.$current.withValue(registry) {
      await ReplayRequest(
        trace: output, mode: .auto, reactor: nil, steps: false, stateAt: nil, json: false
      ).execute(output: replayed)
    }
    #expect(replayCode == 0)
    #expect(replayed.all.last?.hasPrefix("match: 8 mutations replayed through \(name)") == true)
  }
}
