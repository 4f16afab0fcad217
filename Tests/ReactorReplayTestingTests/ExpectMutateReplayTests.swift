import Clocks
import Foundation
import ReactorExamples
import ReactorReplay
import ReactorReplayTesting
import ReactorTestSupport
import Testing

/// `expectReplay(_:mutates:effects:…)` with effects played back from the recording.
@MainActor
@Suite struct ExpectMutateReplayTests {
  private static let counterTrace = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Traces/counter.trace.jsonl").path

  @Test func theCounterExampleReplaysWithoutItsClockEverBeingSleptOn() async {
    await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let result = await expectReplay(
        Self.counterTrace, mutates: CounterReactor(clock: SleeplessClock(), limit: 2),
        effects: .recorded, clock: clock, advance: { await clock.advance(by: $0) },
        allowingReactorMismatch: false)
      #expect(result?.stepsChecked == 10)
      #expect(result?.playedEffects.map(\.effect) == [1, 2])
    }
  }

  @Test func anEffectTodaysMutateNoLongerStartsIsReportedAtItsAction() async throws {
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let issues = CapturedIssues()
      await withKnownIssue {
        await expectReplay(
          Self.counterTrace, mutates: CounterReactor(clock: SleeplessClock(), limit: 1),
          effects: .recorded, clock: clock, advance: { await clock.advance(by: $0) })
      } matching: {
        issues.capture($0)
      }
      let report = try #require(issues.all.first)
      #expect(report.hasPrefix("\(Self.counterTrace): replay diverged after 3 matching mutations"))
      #expect(
        report.contains(
          "action increase\nthe recording starts effect 2 (increase) at this action; today's "
            + "mutate starts no effect"))
    }
  }
}

/// A clock whose sleep fails the test: a replay with recorded effects never runs a body.
struct SleeplessClock: Clock {
  var now: ContinuousClock.Instant { .now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    Issue.record("the replay ran an effect body that sleeps on the clock")
    throw CancellationError()
  }
}
