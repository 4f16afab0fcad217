import Foundation
import Testing

/// What a new user ran into, each with its exit code and its message line.
@Suite("A new user's first commands, end to end")
struct FirstUseTests {
  private let counter = "Traces/counter.trace.jsonl"

  @Test func anUnknownKeyExitsWith2ListingTheStatesFieldsClosestFirst() throws {
    let scratch = try ScratchDirectory()
    let result = try runReactorTrace([
      "render", "transitions", counter, "--key", "isLoadin", "-o", scratch.file("x.svg"),
    ])
    #expect(result.exitCode == 2)
    #expect(
      result.standardError
        == "reactor-trace: unknown --key 'isLoadin': the trace's state has no such field; its "
        + "fields, closest first: isLoading, value, alertMessage, alertMessage.value, "
        + "alertMessage.valueUpdatedCount\n")
    #expect(scratch.contents.isEmpty)
    let nested = try runReactorTrace([
      "render", "transitions", counter, "--key", "alertMessage.value", "-o", scratch.file("x.svg"),
    ])
    #expect(nested.exitCode == 0, "\(nested.standardError)")
  }

  @Test func replayStepsHonoursFromAndTo() throws {
    let result = try runReactorTrace([
      "replay", counter, "--mode", "structural", "--steps", "--from", "18", "--to", "19",
    ])
    #expect(result.exitCode == 0)
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.first?.hasPrefix("#18 ") == true)
    #expect(lines.dropLast().last?.hasPrefix("#19 ") == true)
    #expect(!result.standardOutput.contains("#17 "))
  }

  @Test func aWindowBeyondTheTracesEndIsAnError() throws {
    let scratch = try ScratchDirectory()
    let replay = try runReactorTrace(["replay", counter, "--from", "25"])
    #expect(replay.exitCode == 2)
    #expect(
      replay.standardError
        == "reactor-trace: no event of the trace is in --from 25: its events end at 19\n")
    let timeline = try runReactorTrace([
      "render", "timeline", counter, "--from", "25", "-o", scratch.file("t.svg"),
    ])
    #expect(timeline.exitCode == 2)
    #expect(
      timeline.standardError
        == "reactor-trace: no event of the trace is in --from 25: its events are 1 to 19\n")
    #expect(scratch.contents.isEmpty)
  }

  @Test func versionPrintsTheToolAndTraceFormatVersions() throws {
    let result = try runReactorTrace(["--version"])
    #expect(result.exitCode == 0)
    #expect(result.standardOutput == "reactor-trace 0.1.0 (trace format 1.1)\n")
  }

  @Test func aBadActionInAScriptNamesItsLineAndTheActionsCases() throws {
    let scratch = try ScratchDirectory()
    let script = scratch.file("script.jsonl")
    for (step, message) in [
      (
        #"{"t": 0, "action": "jump"}"#,
        "'jump' is not a case of ReactorExamples.CounterReactor.Action; its cases: "
          + #""decrease", "increase""#
      ),
      (
        #"{"t": 0, "action": {"increase": 3}}"#,
        "the case 'increase' of ReactorExamples.CounterReactor.Action is written "
          + #""increase", not {"increase":3}"#
      ),
    ] {
      try (#"{"t": 0, "action": "increase"}"# + "\n" + step + "\n").write(
        toFile: script, atomically: true, encoding: .utf8)
      let result = try runReactorTrace([
        "record", "--reactor", "ReactorExamples.CounterReactor", "--actions", script, "-o",
        scratch.file("t.jsonl"),
      ])
      #expect(result.exitCode == 2)
      #expect(
        result.standardError
          == "reactor-trace: \(script):2: the action cannot be decoded: \(message)\n")
    }
  }

  @Test func diffNamesBothEventsWhenTheirKindsDiffer() throws {
    let scratch = try ScratchDirectory()
    let lines = try String(
      contentsOfFile: repositoryRoot + "/" + counter, encoding: .utf8
    ).split(separator: "\n").map(String.init)
    // Without event 2 (the effect's start), event numbers shift: seq 2 is the mutation.
    var shifted = lines
    shifted.remove(at: 2)
    for index in 2..<shifted.count {
      let seq = index
      shifted[index] = shifted[index].replacingOccurrences(
        of: #"{"seq":\#(seq + 1),"#, with: #"{"seq":\#(seq),"#)
    }
    let other = scratch.file("other.trace.jsonl")
    try (shifted.joined(separator: "\n") + "\n").write(
      toFile: other, atomically: true, encoding: .utf8)
    let result = try runReactorTrace(["diff", counter, other])
    #expect(result.exitCode == 1)
    #expect(
      result.standardOutput.hasPrefix(
        "divergence: the traces differ at event 2: the first trace has effectStart of effect 1 "
          + "'increase' (action 1), the second mutation setLoading(true)"))
  }

  @Test func timelineHelpOffersOnlyTheFormatsItAccepts() throws {
    let help = try runReactorTrace(["render", "timeline", "--help"])
    #expect(help.standardOutput.contains("dot, svg, png or pdf"))
    #expect(!help.standardOutput.lowercased().contains("mermaid"))
    #expect(!help.standardOutput.contains(".mmd"))
    let transitions = try runReactorTrace(["render", "transitions", "--help"])
    #expect(transitions.standardOutput.contains("dot, svg, png, pdf or mermaid"))
    let scratch = try ScratchDirectory()
    let mermaid = try runReactorTrace([
      "render", "timeline", counter, "-o", scratch.file("t.mmd"),
    ])
    #expect(mermaid.exitCode == 2)
    #expect(
      mermaid.standardError
        == "reactor-trace: a timeline cannot be written as mermaid; use dot, svg, png or pdf\n")
  }

  @Test func rerecordWritesANewTraceAndSaysWhatChanged() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("counter.trace.jsonl")
    let result = try runReactorTrace(["rerecord", counter, "-o", output])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      result.standardOutput
        == "wrote \(output): 19 events from 4 actions re-sent to ReactorExamples.CounterReactor\n"
        + "no change: the same events and states\n")
    #expect(
      FileManager.default.contents(atPath: output)
        == FileManager.default.contents(atPath: repositoryRoot + "/" + counter))

    let copy = scratch.file("copy.trace.jsonl")
    try FileManager.default.copyItem(atPath: output, toPath: copy)
    let inPlace = try runReactorTrace(["rerecord", copy, "--in-place"])
    #expect(inPlace.exitCode == 0)
    #expect(inPlace.standardOutput.hasPrefix("wrote \(copy): 19 events"))

    let same = try runReactorTrace(["rerecord", copy, "-o", copy])
    #expect(same.exitCode == 2)
    #expect(
      same.standardError
        == "reactor-trace: the output '\(copy)' is the input '\(copy)'; write to another file\n")
    let neither = try runReactorTrace(["rerecord", copy])
    #expect(neither.exitCode == 64)
    let missing = try runReactorTrace(["rerecord", "Traces/missing.jsonl", "-o", output])
    #expect(missing.exitCode == 2)
    #expect(missing.standardError.hasPrefix("reactor-trace: cannot open 'Traces/missing.jsonl'"))
  }
}
