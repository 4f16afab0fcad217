import Foundation
import Testing

@Suite("reactor-trace replay and diff, end to end")
struct ReplayCommandTests {
  /// The sample traces in `Traces/`.
  static var sampleTraces: [String] { SampleTraceRenderingTests.sampleTraces }

  /// A copy of the Counter sample with one recorded state value changed by hand.
  private func editedCounterTrace(in scratch: borrowing ScratchDirectory) throws -> String {
    let original = try String(
      contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8)
    var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Line 5 is event 4, `increaseValue`, whose diff sets the value to 1.
    #expect(lines[4].contains(#""diff":[{"p":["value"],"v":1}]"#))
    lines[4] = lines[4].replacingOccurrences(
      of: #""diff":[{"p":["value"],"v":1}]"#, with: #""diff":[{"p":["value"],"v":5}]"#)
    let path = scratch.file("edited.trace.jsonl")
    try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test(arguments: sampleTraces)
  func everySampleTraceReplaysWithExitCode0(trace: String) throws {
    let result = try runReactorTrace(["replay", trace])
    #expect(result.exitCode == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.hasPrefix("match: "))
  }

  @Test(arguments: [
    "Traces/counter.trace.jsonl", "Traces/github-search.trace.jsonl",
    "Traces/profile.trace.jsonl", "Traces/tasklist.trace.jsonl",
  ])
  func everyExampleTraceReplaysInMutateModeWithItsEffectsPlayedBack(trace: String) throws {
    let result = try runReactorTrace(["replay", trace, "--mode", "mutate", "--effects", "recorded"])
    #expect(result.exitCode == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(
      result.standardOutput.hasPrefix("match: re-sent the recorded actions to ReactorExamples."))
    #expect(result.standardOutput.contains("with every effect played back from the trace, not run"))
  }

  @Test func theVerdictNamesTheEffectsPlayedBackRatherThanRun() throws {
    let text = try runReactorTrace([
      "replay", "Traces/github-search.trace.jsonl", "--mode", "mutate", "--effects", "recorded",
    ])
    #expect(text.standardOutput.contains("(search ×6, next page ×3)"))
    let json = try runReactorTrace([
      "replay", "Traces/counter.trace.jsonl", "--mode", "mutate", "--effects", "recorded", "--json",
    ])
    #expect(
      json.standardOutput
        == #"{"checked":10,"effects":"recorded","mode":"mutate","playedEffects":[{"effect":1,"#
        + #""name":"increase"},{"effect":2,"name":"increase"}],"#
        + #""reactor":"ReactorExamples.CounterReactor","result":"match"}"# + "\n")
  }

  @Test func aWholeSessionReplaysThroughMutateWithEveryEffectPlayedBack() throws {
    let session = "Traces/taskapp.session.jsonl"
    let text = try runReactorTrace(["replay", session, "--mode", "mutate", "--effects", "recorded"])
    #expect(text.exitCode == 0, "\(text.standardOutput)\(text.standardError)")
    #expect(
      text.standardOutput
        == "match: re-sent the 9 user actions to TaskApp on a test clock with every effect "
        + "played back from the session, not run (reactor 1: fetch tasks ×2, delete ×1; "
        + "reactor 2: save ×2; reactor 3: toggle ×1); all 57 events of 9 reactors are the "
        + "recorded ones, service events and their origins included\n")
    let json = try runReactorTrace([
      "replay", session, "--mode", "mutate", "--effects", "recorded", "--json",
    ])
    #expect(json.standardOutput.contains(#""playedEffects":[{"effect":1,"name":"fetch tasks","#))
    #expect(json.standardOutput.contains(#"{"effect":1,"name":"save","reactor":2}"#))
    let run = try runReactorTrace(["replay", session, "--mode", "mutate"])
    #expect(run.exitCode == 0, "\(run.standardOutput)\(run.standardError)")
    #expect(!run.standardOutput.contains("played back"))
  }

  @Test func oneReactorOfASessionReplaysThroughMutateWithItsEffectsPlayedBack() throws {
    let session = "Traces/taskapp.session.jsonl"
    let edit = try runReactorTrace([
      "replay", session, "--mode", "mutate", "--effects", "recorded", "--reactor-id", "2",
    ])
    #expect(edit.exitCode == 0, "\(edit.standardOutput)\(edit.standardError)")
    #expect(
      edit.standardOutput.hasPrefix(
        "match: re-sent the recorded actions of reactor 2 to ReactorExamples.TaskEditReactor "
          + "on a test clock with every effect played back from the trace, not run (save ×2)"))
    let cell = try runReactorTrace([
      "replay", session, "--mode", "mutate", "--effects", "recorded", "--reactor-id", "3",
    ])
    #expect(cell.exitCode == 0, "\(cell.standardOutput)\(cell.standardError)")
    // One reactor's effects cannot run alone: their service events reach other reactors.
    let run = try runReactorTrace(["replay", session, "--mode", "mutate", "--reactor-id", "2"])
    #expect(run.exitCode == 2)
    #expect(run.standardError.contains("with --effects recorded only"))
  }

  @Test func effectsWithoutMutateModeIsAUsageError() throws {
    let result = try runReactorTrace([
      "replay", "Traces/counter.trace.jsonl", "--effects", "recorded",
    ])
    #expect(result.exitCode == 64)
    #expect(result.standardError.contains("--effects applies to --mode mutate only."))
  }

  @Test func theCounterSampleReplaysThroughTodaysReduceAndMutate() throws {
    let reduce = try runReactorTrace(["replay", "Traces/counter.trace.jsonl"])
    #expect(
      reduce.standardOutput
        == "match: 10 mutations replayed through ReactorExamples.CounterReactor.reduce; "
        + "every state equals the recorded one\n")
    let mutate = try runReactorTrace([
      "replay", "Traces/counter.trace.jsonl", "--mode", "mutate",
    ])
    #expect(mutate.exitCode == 0, "\(mutate.standardOutput)\(mutate.standardError)")
    #expect(mutate.standardOutput.hasPrefix("match: re-sent the recorded actions"))
  }

  @Test func anEditedStateIsCaughtAtTheEditedStepWithExitCode1() throws {
    let scratch = try ScratchDirectory()
    let edited = try editedCounterTrace(in: scratch)
    for mode in ["auto", "structural", "reduce"] {
      let result = try runReactorTrace(["replay", edited, "--mode", mode])
      #expect(result.exitCode == 1, "\(mode): \(result.standardError)")
      #expect(result.standardOutput.contains("after event 4 does not match its hash"))
      #expect(result.standardError.isEmpty)
    }
    let json = try runReactorTrace(["replay", edited, "--json"])
    #expect(json.exitCode == 1)
    #expect(json.standardOutput.contains(#""result":"divergence""#))
    #expect(json.standardOutput.contains(#""seq":4"#))
  }

  @Test func stepsRangesAndStatesArePrinted() throws {
    let steps = try runReactorTrace([
      "replay", "Traces/counter.trace.jsonl", "--mode", "structural", "--from", "3", "--to", "4",
    ])
    #expect(steps.exitCode == 0)
    let lines = steps.standardOutput.split(separator: "\n")
    #expect(lines.count == 5)
    #expect(lines[0].contains("setLoading(true)"))
    #expect(lines[1] == "  isLoading: false → true")
    #expect(lines[2].contains("increaseValue"))
    #expect(lines[3] == "  value: 0 → 1")
    #expect(lines[4].hasPrefix("match: 19 events"))

    let state = try runReactorTrace([
      "replay", "Traces/counter.trace.jsonl", "--state-at", "4", "--json",
    ])
    #expect(state.exitCode == 0)
    #expect(
      state.standardOutput.contains(
        #"{"state":{"alertMessage":{"value":null,"valueUpdatedCount":0},"isLoading":true,"value":1},"stateAt":4}"#
      ))
  }

  /// The Counter sample as a flight recorder keeps it when it dropped events 1 to 6: the
  /// header starts from the state after event 6 and says which events are gone.
  private func counterWindow(in scratch: borrowing ScratchDirectory) throws -> String {
    let original = try String(
      contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8)
    var lines = original.split(separator: "\n").map(String.init)
    // Event 5 (line 6) is the last state change before the window: value 1, not loading.
    let hash = try #require(lines[5].split(separator: #""hash":""#).last?.prefix(16))
    lines[0] = lines[0]
      .replacingOccurrences(
        of: #""value":0},"initialStateHash":"2ddfd7135ad998ad""#,
        with: #""value":1},"initialStateHash":"\#(hash)""#
      )
      .replacingOccurrences(
        of: #""metadata":"#,
        with: #""window":{"firstSequence":7,"droppedEvents":6},"metadata":"#)
    lines.removeSubrange(1...6)
    lines[lines.count - 1] = lines[lines.count - 1]
      .replacingOccurrences(of: #""dropped":0"#, with: #""dropped":6"#)
    let path = scratch.file("window.trace.jsonl")
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func anEventBeforeAWindowIsNamedAsDropped() throws {
    let scratch = try ScratchDirectory()
    let window = try counterWindow(in: scratch)
    let inside = try runReactorTrace(["replay", window, "--state-at", "9"])
    #expect(inside.exitCode == 0, "\(inside.standardError)")
    #expect(inside.standardOutput.hasPrefix("state after event 9: "))
    let dropped =
      "it is a flight-recorder window: its events run from 7 to 19 (the 6 events "
      + "before it were dropped)\n"
    let state = try runReactorTrace(["replay", window, "--state-at", "5"])
    #expect(state.exitCode == 2)
    #expect(state.standardError == "reactor-trace: the trace has no event 5: " + dropped)
    let steps = try runReactorTrace(["replay", window, "--from", "1", "--to", "3"])
    #expect(steps.exitCode == 2)
    #expect(
      steps.standardError
        == "reactor-trace: no event of the trace is in --from 1 --to 3: " + dropped)
  }

  @Test func unusableInputExitsWith2AndOneLine() throws {
    let scratch = try ScratchDirectory()
    let long = scratch.file("long.jsonl")
    _ = FileManager.default.createFile(atPath: long, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: long))
    let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
    for _ in 0..<100 { handle.write(chunk) }
    try handle.close()

    for (arguments, message) in [
      (["replay", "Traces/missing.jsonl"], "cannot open 'Traces/missing.jsonl'"),
      (["replay", "README.md"], "'README.md' is not a reactor-trace file"),
      (["replay", long], "'\(long)' is not a reactor-trace file: its first line is longer than"),
      (
        ["replay", "Traces/counter.trace.jsonl", "--reactor", "Nope"],
        "unknown reactor 'Nope'; registered: ReactorExamples.BookmarkReactor, ReactorExamples.CounterReactor"
      ),
      (
        ["replay", "Tests/Fixtures/feed.trace.jsonl", "--mode", "reduce"],
        "the trace's reactor 'ReactorTracingTests.FeedReactor' is not registered"
      ),
    ] {
      let result = try runReactorTrace(arguments)
      #expect(result.exitCode == 2, "\(arguments)")
      #expect(result.standardError.hasPrefix("reactor-trace: " + message), "\(arguments)")
      #expect(result.standardError.split(separator: "\n").count == 1)
    }
  }

  @Test func typeChangesTheTraceSurvivesReplayWithANoteAndOthersFailNamingThem() throws {
    let scratch = try ScratchDirectory()
    let original = try String(
      contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8)
    func edited(_ name: String, _ edit: (String) -> String) throws -> String {
      let path = scratch.file(name)
      try edit(original).write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }
    // The trace's Action had a case 'reset' that today's code removed; the trace never uses it.
    let unused = try edited("unused.trace.jsonl") {
      $0.replacingOccurrences(
        of: #""cases":{"decrease":{},"increase":{}}"#,
        with: #""cases":{"decrease":{},"increase":{},"reset":{}}"#)
    }
    for mode in ["reduce", "mutate"] {
      let result = try runReactorTrace(["replay", unused, "--mode", mode])
      #expect(result.exitCode == 0, "\(mode): \(result.standardError)")
      #expect(result.standardOutput.hasPrefix("match: "))
      #expect(
        result.standardError
          == "reactor-trace: note: the reactor's types changed since the recording, in ways "
          + "this trace survives: Action: case 'reset' was removed\n")
    }
    let json = try runReactorTrace(["replay", unused, "--json"])
    #expect(json.standardOutput.contains(#""schemaChanges":["Action: case 'reset' was removed"]"#))

    // The trace uses 'incrementValue', which today's code calls 'increaseValue'.
    let renamed = try edited("renamed.trace.jsonl") {
      $0.replacingOccurrences(of: "increaseValue", with: "incrementValue")
    }
    for mode in ["reduce", "mutate"] {
      let result = try runReactorTrace(["replay", renamed, "--mode", mode])
      #expect(result.exitCode == 2, "\(mode)")
      #expect(
        result.standardError
          == "reactor-trace: line 5 (seq 4): mutation incrementValue uses a case that changed "
          + "since the recording: Mutation: case 'incrementValue' was removed "
          + "(cases added since: 'increaseValue')\n")
    }

    // The trace recorded `value` as a String; today it is an Int.
    let retyped = try edited("retyped.trace.jsonl") {
      $0.replacingOccurrences(
        of: #""isLoading":"Bool","value":"Int""#, with: #""isLoading":"Bool","value":"String""#)
    }
    let result = try runReactorTrace(["replay", retyped])
    #expect(result.exitCode == 2)
    #expect(
      result.standardError
        == "reactor-trace: the trace's types are not compatible with the current ones, from "
        + "line 1 on: State.value: type changed from String to Int\n")
  }

  @Test func diffNamesTheFirstDivergingEvent() throws {
    let scratch = try ScratchDirectory()
    let edited = try editedCounterTrace(in: scratch)
    let same = try runReactorTrace([
      "diff", "Traces/counter.trace.jsonl", "Traces/counter.trace.jsonl",
    ])
    #expect(same.exitCode == 0)
    #expect(same.standardOutput.hasPrefix("match: "))

    // A trace whose state was edited cannot be trusted: unusable input.
    let corrupt = try runReactorTrace(["diff", "Traces/counter.trace.jsonl", edited])
    #expect(corrupt.exitCode == 2)

    // A valid trace that records something else at event 17.
    let original = try String(
      contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8)
    let relabelled = scratch.file("relabelled.trace.jsonl")
    try original.replacingOccurrences(
      of: #""label":"decreaseValue""#, with: #""label":"decrementValue""#
    ).write(toFile: relabelled, atomically: true, encoding: .utf8)
    let different = try runReactorTrace(["diff", "Traces/counter.trace.jsonl", relabelled])
    #expect(different.exitCode == 1)
    #expect(different.standardOutput.hasPrefix("divergence: "))
    #expect(different.standardOutput.contains("17"))
  }
}
