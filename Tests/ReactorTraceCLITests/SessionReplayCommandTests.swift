import Foundation
import ReactorExampleRegistry
import ReactorTestSupport
import Testing

@testable import ReactorTraceCLI

/// `reactor-trace replay` on a session: structural replay of every reactor and cause, and one
/// reactor through `reduce` with `--reactor-id`.
@MainActor
@Suite struct SessionReplayCommandTests {
  private let session = "Traces/taskapp.session.jsonl"

  private func replay(
    mode: ReactorTraceCommand.Replay.Mode = .auto, steps: Bool = false, reactorID: Int? = nil
  ) async -> (code: Int32, output: [String]) {
    let output = CapturedOutput()
    let code = await ReactorRegistry.$current.withValue(.examples) {
      await ReplayRequest(
        trace: session, mode: mode, reactor: nil, steps: steps, stateAt: nil, json: false,
        reactorID: reactorID
      ).execute(output: output)
    }
    return (code, output.all)
  }

  @Test func aSessionReplaysStructurallyWithEveryCauseResolved() async {
    let (code, output) = await replay()
    #expect(code == 0, "\(output)")
    #expect(
      output.last
        == "match: 57 events of 9 reactors; every state matches its hash and every cause is "
        + "consistent; 9 of 9 actions and 22 of 22 mutations resolve to a user action or a "
        + "named stream")
  }

  @Test func theStepsOfASessionNameTheirReactorAndCausesAcrossReactors() async {
    let (_, output) = await replay(steps: true)
    #expect(
      output.contains {
        $0.hasPrefix("#18 [r1] ") && $0.contains(" mutation insert(")
          && $0.contains("← stream taskService from reactor 2 'edit', action 2 (save), effect 1")
      })
  }

  @Test func oneReactorOfASessionReplaysThroughReduce() async {
    let (code, output) = await replay(reactorID: 2)
    #expect(code == 0, "\(output)")
    #expect(
      output.last
        == "match: 12 mutations of reactor 2 replayed through ReactorExamples.TaskEditReactor"
        + ".reduce; every state equals the recorded one")
    let (missing, _) = await replay(reactorID: 42)
    #expect(missing == 2)
    let (mutateOne, _) = await replay(mode: .mutate, reactorID: 2)
    #expect(mutateOne == 2)
  }

  @Test func oneReactorOfASessionWhoseTypeIsNotRegisteredIsRefusedThroughReduce() async {
    let output = CapturedOutput()
    let code = await ReactorRegistry.$current.withValue(ReactorRegistry()) {
      await ReplayRequest(
        trace: session, mode: .reduce, reactor: nil, steps: false, stateAt: nil, json: false,
        reactorID: 2
      ).execute(output: output)
    }
    #expect(code == 2, "\(output.all)")
  }

  @Test func aWholeSessionReplaysThroughMutateWithItsAppsRegisteredSessionFactory() async {
    // Alone: other suites record the task app's reactors too, through the one observer a
    // process has.
    var result: (code: Int32, output: [String]) = (-1, [])
    await withExclusiveMainSerialExecutor { result = await replay(mode: .mutate) }
    let (code, output) = result
    #expect(code == 0, "\(output)")
    #expect(
      output.last
        == "match: re-sent the 9 user actions to TaskApp on a test clock; all 57 events of 9 "
        + "reactors are the recorded ones, service events and their origins included")
  }

  @Test func aSessionOfAnAppWithNoSessionFactoryIsRefusedNamingTheRegisteredOnes() async throws {
    let scratch = NSTemporaryDirectory() + "session-other-app-\(getpid()).jsonl"
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let text = try String(contentsOfFile: session, encoding: .utf8)
      .replacingOccurrences(of: #""app":"TaskApp""#, with: #""app":"MailApp""#)
    try text.write(toFile: scratch, atomically: true, encoding: .utf8)
    let failure = await ReactorRegistry.$current.withValue(.examples) {
      () async -> CommandFailure? in
      do {
        _ = try await ReplayRequest(
          trace: scratch, mode: .mutate, reactor: nil, steps: false, stateAt: nil, json: false
        ).run(output: CapturedOutput())
        return nil
      } catch {
        return error as? CommandFailure
      }
    }
    #expect(failure?.code == .unusableInput)
    #expect(
      failure?.message
        == "no session factory is registered for app 'MailApp'; registered: TaskApp, TodoApp")
  }

  @Test func rerecordingASessionThroughItsFactoryWritesTheSameSessionAndSaysSo() async throws {
    let scratch = NSTemporaryDirectory() + "session-rerecord-\(getpid()).jsonl"
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let output = CapturedOutput()
    var code: Int32 = -1
    await withExclusiveMainSerialExecutor {
      code = await ReactorRegistry.$current.withValue(.examples) {
        await RerecordRequest(
          trace: session, output: scratch, reactor: nil, settle: .seconds(10)
        ).execute(output: output)
      }
    }
    #expect(code == 0, "\(output.all)")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: scratch))
        == Data(contentsOf: URL(fileURLWithPath: session)))
    #expect(
      output.all == [
        "wrote \(scratch): 57 events of 9 reactors from 9 user actions re-sent through the "
          + "'TaskApp' session factory",
        "no change: every event is the recorded one",
      ])
  }
}

extension SessionReplayCommandTests {
  @Test func twoSessionsDifferAtTheFirstEventThatDiffersNamingItsReactor() async throws {
    let scratch = NSTemporaryDirectory() + "session-diff-\(getpid()).jsonl"
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    var lines = try String(contentsOfFile: session, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    // The row's action has another label (labels are not hashed: the file stays readable).
    let index = try #require(lines.firstIndex { $0.hasPrefix(#"{"seq":23,"#) })
    lines[index] = Substring(
      lines[index].replacingOccurrences(of: #""label":"toggle""#, with: #""label":"check""#))
    try lines.joined(separator: "\n").write(toFile: scratch, atomically: true, encoding: .utf8)
    let output = CapturedOutput()
    let code = await DiffRequest(first: session, second: scratch, json: false, strict: false)
      .execute(output: output)
    #expect(code == 1)
    #expect(
      output.all.first?.hasPrefix(
        "divergence: the traces differ at event 23 (reactor 3): action toggle against check")
        == true)
    let same = CapturedOutput()
    #expect(
      await DiffRequest(first: session, second: session, json: false, strict: false).execute(
        output: same) == 0)
  }
}

/// `rerecord` of a session runs the app's factory and script as session replay does.
@MainActor
@Suite struct SessionRerecordDeterminismTests {
  @Test func rerecordingASessionRunsTheFactoryOnTheMainSerialExecutor() async throws {
    // Under load, jobs on the default executor interleave with the test clock's: a
    // `setSections` at 50 ms landed after the 200 ms tap in 21 of 40 runs two at a time.
    final class NoApp {}
    let seen = SerialFlags()
    var registry = ReactorRegistry()
    registry.registerSession(app: "TaskApp") { _ in
      seen.values.append(usesMainSerialExecutor)
      return NoApp()
    }
    let scratch = NSTemporaryDirectory() + "session-rerecord-serial-\(getpid()).jsonl"
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    var code: Int32 = -1
    await withExclusiveDefaultExecutor {
      code = await ReactorRegistry.$current.withValue(registry) {
        await RerecordRequest(
          trace: "Traces/taskapp.session.jsonl", output: scratch, reactor: nil,
          settle: .seconds(1)
        ).execute(output: CapturedOutput())
      }
    }
    #expect(code == 0)
    #expect(seen.values == [true])
  }
}

/// What a factory saw, set on the main actor.
@MainActor
private final class SerialFlags {
  var values: [Bool] = []
}
