import Clocks
import ConcurrencyExtras
import Foundation
import ReactorExamples
import ReactorReplay
import ReactorReplayTesting
import ReactorScript
import ReactorTestSupport
import ReactorTracing
import Testing

/// The repository's root, found from this file's path.
private let root = String(
  #filePath.dropLast("/Tests/ReactorScriptTests/ReactorScriptTests.swift".count))

@MainActor
@Suite("Scripts: read, written, derived from traces, and recorded through the library")
struct ReactorScriptTests {
  @Test func theCounterGoldenTraceIsRecordedFromItsScriptThroughTheLibraryAlone() async throws {
    let script = try ReactorScript(path: root + "/Traces/counter.actions.jsonl")
    await withExclusiveMainSerialExecutor {
      let outcome = await expectGoldenTrace(
        root + "/Traces/counter.trace.jsonl", isRecording: false
      ) {
        let clock = TestClock()
        let limit = Int(script.metadata["limit"] ?? "") ?? 10
        return try await ScriptRunner.record(
          script, reactor: CounterReactor(clock: clock, limit: limit), clock: clock)
      }
      #expect(outcome == .matched)
    }
  }

  @Test func theTaskListGoldenTraceIsRecordedWithItsScriptedEvents() async throws {
    let script = try ReactorScript(path: root + "/Traces/tasklist.actions.jsonl")
    #expect(script.steps.count(where: { !$0.input.isAction }) > 0)
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let service = TaskService(clock: clock, latency: .milliseconds(100))
      let trace = try await ScriptRunner.record(
        script, reactor: TaskListReactor(service: service), clock: clock,
        deliver: service.apply)
      let golden = try Data(contentsOf: URL(fileURLWithPath: root + "/Traces/tasklist.trace.jsonl"))
      #expect(trace.serialized == Array(golden))
    }
  }

  @Test func mutateReplayFeedsATracesScriptedEventsToTheFakes() async throws {
    let path = root + "/Traces/tasklist.trace.jsonl"
    let metadata = try TraceReader(path: path, verifyingStates: false).header.metadata
    #expect(metadata[ScriptedEvents.metadataKey] != nil)
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let service = TaskService(clock: clock, latency: .milliseconds(100))
      let feed = try ScriptedEventFeed(
        metadata: metadata, as: TaskEdit.self, clock: clock, deliver: service.apply)
      let result = try await MutateReplay.run(
        path: path, through: TaskListReactor(service: service), clock: clock,
        advance: { await feed.advance(by: $0) })
      #expect(result.isMatch, "\(String(describing: result.divergence))")
    }
  }

  @Test func theRunnerPutsTheSerialExecutorFlagBackAsItWas() async throws {
    let script = try ReactorScript(
      parsing: #"{"t": 0, "action": "increase"}"#, name: "one.jsonl")
    try await withExclusiveMainSerialExecutor {
      uncheckedUseMainSerialExecutor = false
      defer { uncheckedUseMainSerialExecutor = true }
      let clock = TestClock()
      let trace = try await ScriptRunner.record(
        script, reactor: CounterReactor(clock: clock, limit: 2), clock: clock)
      #expect(!uncheckedUseMainSerialExecutor)
      #expect(
        trace.events.count(where: { if case .mutation = $0.kind { true } else { false } }) == 3)
    }
  }

  @Test func aScriptDerivedFromATraceIsWrittenAndReadBackUnchanged() throws {
    let derived = try ReactorScript(trace: root + "/Traces/tasklist.trace.jsonl")
    let written = try ReactorScript(parsing: derived.text, name: "derived.jsonl")
    #expect(written.reactor == "ReactorExamples.TaskListReactor")
    #expect(written.metadata == derived.metadata)
    #expect(written.steps.map(\.time) == derived.steps.map(\.time))
    #expect(
      written.steps.map(\.input)
        == derived.steps.map { step in
          if case .action(let value) = step.input {
            .action(ScriptCase.compact(value))
          } else {
            step.input
          }
        })
    #expect(
      ScriptedEvents(script: written).metadataValue == derived.metadata[ScriptedEvents.metadataKey]
        ?? ScriptedEvents(script: derived).metadataValue)
  }

  @Test func eventsRunBeforeActionsAtTheSameTimeAndOtherwiseInScriptOrder() throws {
    let script = try ReactorScript(
      parsing: """
        {"t": 0, "action": "a"}
        {"t": 5, "action": "b"}
        {"t": 5, "event": "x"}
        {"t": 5, "action": "c"}
        {"t": 5, "event": "y"}
        """, name: "order.jsonl")
    #expect(
      script.orderedSteps.map(\.input) == [
        .action("a"), .event("x"), .event("y"), .action("b"), .action("c"),
      ])
  }

  @Test(arguments: [
    ("1e300", "'t' must be a number of milliseconds from 0 to 9223372036854"),
    ("9223372036854775807", "'t' must be a number of milliseconds from 0 to 9223372036854"),
    ("-1", "'t' must be a number of milliseconds from 0 to 9223372036854"),
    ("\"soon\"", "'t' must be a number of milliseconds from 0 to 9223372036854"),
  ])
  func aTimeOutOfRangeIsRefusedNamingItsLine(time: String, message: String) {
    #expect {
      try ReactorScript(parsing: "{\"t\": \(time), \"action\": \"a\"}", name: "t.jsonl")
    } throws: { error in
      "\(error)".hasPrefix("t.jsonl:1: malformed step: " + message)
    }
  }

  @Test func scriptedEventTimesKeepTheirFractionAndRefuseHugeValues() throws {
    let events = ScriptedEvents(events: [
      .init(time: .nanoseconds(1_500_001), value: "x"), .init(time: .milliseconds(900), value: "y"),
    ])
    let stored = try #require(events.metadataValue)
    #expect(stored == #"[{"event":"x","t":1.500001},{"event":"y","t":900}]"#)
    #expect(try ScriptedEvents(metadata: [ScriptedEvents.metadataKey: stored]) == events)
    #expect(throws: ScriptError.self) {
      try ScriptedEvents(metadata: [ScriptedEvents.metadataKey: #"[{"event":"x","t":1e300}]"#])
    }
  }

  @Test func aCaseWithoutPayloadIsWrittenAsItsNameAndReadEitherWay() throws {
    #expect(ScriptCase.compact(["increase": [:]]) == "increase")
    #expect(ScriptCase.expanded("increase") == ["increase": [:]])
    #expect(try ScriptCase.decode(CounterReactor.Action.self, from: "increase") == .increase)
    #expect(
      ScriptCase.payloadFreeCases(of: CounterReactor.Action.self) == ["decrease", "increase"])
    #expect(ScriptCase.payloadFreeCases(of: TaskListReactor.Action.self) == ["refresh"])
  }

  @Test func aCaseWhosePayloadsAreAllOptionalIsTriedWithNil() throws {
    let cases = ScriptCase.payloadFreeCases(of: ItemListReactor.Action.self)
    #expect(cases == ["load", ["setFilter": [:]]])
    #expect(try ScriptCase.decode(ItemListReactor.Action.self, from: cases[1]) == .setFilter(nil))
  }
}
