import ArgumentParser
import Foundation
import ReactorCore
import ReactorTestSupport
import ReactorTraceCLI
import ReactorTracing
import Testing

/// A reactor of the user's own, unknown to the shipped binary.
final class TallyReactor: Reactor {
  enum Action: Codable, Sendable { case add(Int) }
  struct State: Codable, Sendable { var total = 0 }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    if case .add(let amount) = mutation { state.total += amount }
    return state
  }
}

@MainActor
@Suite("A reactor-trace built with the user's own reactors")
struct CustomRegistryTests {
  /// Records a short run of the tally into a file and returns its path.
  private func recordTally(in scratch: borrowing ScratchDirectory) throws -> String {
    let reactor = TallyReactor()
    let recorder = try InMemoryTraceRecorder(recording: reactor)
    for amount in [1, 2, 3] { reactor.send(.add(amount)) }
    recorder.stop()
    let path = scratch.file("tally.trace.jsonl")
    try recorder.trace.write(to: path)
    return path
  }

  /// Runs `reactor-trace` in-process with `registry`; returns the exit code.
  private func run(_ arguments: [String], registry: ReactorRegistry) async throws -> Int32 {
    try await ReactorRegistry.$current.withValue(registry) {
      var command = try ReactorTraceCommand.parseAsRoot(arguments)
      do {
        if var asyncCommand = command as? any AsyncParsableCommand {
          try await asyncCommand.run()
        } else {
          try command.run()
        }
        return 0
      } catch let exit as ExitCode {
        return exit.rawValue
      }
    }
  }

  @Test func aRegisteredReactorIsReplayedThroughItsReduce() async throws {
    let scratch = try ScratchDirectory()
    let path = try recordTally(in: scratch)
    var registry = ReactorRegistry()
    registry.register(TallyReactor.self) { _ in TallyReactor() }
    #expect(registry.names == [String(reflecting: TallyReactor.self)])
    #expect(try await run(["replay", path, "--mode", "reduce"], registry: registry) == 0)
  }

  @Test func exploreWithoutAnAlphabetRefusesAnActionWhoseCasesAllCarryPayloads() async throws {
    var registry = ReactorRegistry()
    registry.register(TallyReactor.self) { _ in TallyReactor() }
    let name = String(reflecting: TallyReactor.self)
    #expect(try await run(["explore", name], registry: registry) == 2)
  }

  @Test func anUnregisteredReactorCannotBeReplayedThroughReduce() async throws {
    let scratch = try ScratchDirectory()
    let path = try recordTally(in: scratch)
    #expect(try await run(["replay", path, "--mode", "reduce"], registry: ReactorRegistry()) == 2)
    #expect(try await run(["replay", path], registry: ReactorRegistry()) == 0)
  }
}

@MainActor
@Suite("explore with the user's own invariants")
struct ExploreInvariantTests {
  @Test func aBrokenInvariantExitsWith1AndItsShortestScriptIsRecorded() async throws {
    let scratch = try ScratchDirectory()
    let script = scratch.file("alphabet.jsonl")
    try #"{"t": 0, "action": {"add": {"_0": 2}}}"#.write(
      toFile: script, atomically: true, encoding: .utf8)
    var registry = ReactorRegistry()
    registry.register(TallyReactor.self, invariants: ["total below 5": { $0.total < 5 }]) { _ in
      TallyReactor()
    }
    let name = String(reflecting: TallyReactor.self)
    let trace = scratch.file("violation.trace.jsonl")
    var code: Int32 = 0
    // The exploration switches the process to the main serial executor while it runs: take
    // the gate the other tests that use it share.
    try await withExclusiveMainSerialExecutor {
      code = try await ReactorRegistry.$current.withValue(registry) {
        let command = try ReactorTraceCommand.parseAsRoot([
          "explore", name, "--actions", script, "--max-depth", "5", "-o", trace,
        ])
        do {
          if var asyncCommand = command as? any AsyncParsableCommand {
            try await asyncCommand.run()
          }
          return Int32(0)
        } catch let exit as ExitCode {
          return exit.rawValue
        }
      }
    }
    #expect(code == 1)
    let reader = try TraceReader(path: trace)
    var actions = 0
    while let event = try reader.next() {
      if case .action = event.kind { actions += 1 }
    }
    #expect(actions == 3)
    #expect(reader.currentState == .json(["total": 6]))
  }
}
