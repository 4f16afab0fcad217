import Foundation
import Testing

@Suite("Torn and unfinished traces, end to end")
struct TraceWarningCommandTests {
  /// A copy of `trace` cut in the middle of its second-to-last line, as a crash leaves it,
  /// and the number of that line.
  private func tornCopy(of trace: String, in scratch: borrowing ScratchDirectory) throws
    -> (path: String, line: Int)
  {
    let text = try String(contentsOfFile: repositoryRoot + "/" + trace, encoding: .utf8)
    var lines = text.split(separator: "\n").map(String.init)
    let torn = lines.count - 1
    lines[torn - 1] = String(lines[torn - 1].prefix(lines[torn - 1].count / 2))
    let path = scratch.file("torn-" + (trace.split(separator: "/").last.map(String.init) ?? ""))
    try lines.prefix(torn).joined(separator: "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    return (path, torn)
  }

  @Test(arguments: ReplayCommandTests.sampleTraces)
  func aTornCopyOfEverySampleReplaysAndRendersWithAWarningAndFailsWhenStrict(
    trace: String
  ) throws {
    let scratch = try ScratchDirectory()
    let (torn, line) = try tornCopy(of: trace, in: scratch)
    let warning = "reactor-trace: warning: \(torn): line \(line) is incomplete"
    for mode in ["reduce", "mutate", "structural"] {
      let result = try runReactorTrace(["replay", torn, "--mode", mode])
      #expect(result.exitCode == 0, "\(mode): \(result.standardError)")
      #expect(result.standardError.hasPrefix(warning), "\(mode)")
      // The torn line, and in traces cut while an effect ran, the effects still running.
      #expect(result.standardOutput.hasPrefix("match (incomplete trace: "))
      let strict = try runReactorTrace(["replay", torn, "--mode", mode, "--strict"])
      #expect(strict.exitCode == 3, "\(mode)")
      #expect(
        strict.standardError.hasPrefix("reactor-trace: error (--strict): \(torn): line \(line)"))
    }
    for kind in ["transitions", "timeline"] {
      let output = scratch.file("\(kind).svg")
      let result = try runReactorTrace(["render", kind, torn, "-o", output])
      #expect(result.exitCode == 0, "\(kind): \(result.standardError)")
      #expect(result.standardError.hasPrefix(warning))
      #expect(FileManager.default.fileExists(atPath: output))
      try FileManager.default.removeItem(atPath: output)
      let strict = try runReactorTrace(["render", kind, torn, "-o", output, "--strict"])
      #expect(strict.exitCode == 3, "\(kind)")
      #expect(!FileManager.default.fileExists(atPath: output))
    }
    let diff = try runReactorTrace(["diff", torn, torn])
    #expect(diff.exitCode == 0)
    #expect(diff.standardError.hasPrefix(warning))
    #expect(try runReactorTrace(["diff", torn, torn, "--strict"]).exitCode == 3)
  }

  @Test func jsonOutputCarriesTheWarnings() throws {
    let scratch = try ScratchDirectory()
    let (torn, line) = try tornCopy(of: "Traces/counter.trace.jsonl", in: scratch)
    let result = try runReactorTrace(["replay", torn, "--json"])
    #expect(result.exitCode == 0)
    #expect(result.standardOutput.contains(#""incomplete":true"#))
    #expect(result.standardOutput.contains(#""warnings":["line \#(line) is incomplete"#))
    let diff = try runReactorTrace(["diff", torn, torn, "--json"])
    #expect(diff.standardOutput.contains(#""warnings":[""#))
  }

  @Test func aTraceWithoutAnEndLineNamesTheEffectsStillRunning() throws {
    let scratch = try ScratchDirectory()
    let text = try String(
      contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8)
    // The header and the first three events: the increase's effect has started, not ended.
    let cut = scratch.file("cut.trace.jsonl")
    try text.split(separator: "\n").prefix(4).joined(separator: "\n").appending("\n")
      .write(toFile: cut, atomically: true, encoding: .utf8)
    let result = try runReactorTrace(["replay", cut])
    #expect(result.exitCode == 0)
    #expect(
      result.standardError
        == "reactor-trace: warning: \(cut): the trace has no end line after line 4: the "
        + "recording did not stop normally; 3 complete events read\n"
        + "reactor-trace: warning: \(cut): line 4: the run was not finished: the trace ends at "
        + "0 s with 1 effect still running (effect 1 'increase' of action 1); 3 complete events "
        + "read\n")
    #expect(result.standardOutput.hasPrefix("match (incomplete trace: 2 warnings): "))
  }

  @Test func aRecordingStoppedWhileAnEffectRunsSaysSoAndStrictWritesNothing() throws {
    let scratch = try ScratchDirectory()
    let script = scratch.file("script.jsonl")
    try #"{"t": 0, "action": "increase"}"#.write(toFile: script, atomically: true, encoding: .utf8)
    let output = scratch.file("short.trace.jsonl")
    let arguments = [
      "record", "--reactor", "ReactorExamples.CounterReactor", "--actions", script,
      "--settle", "100", "-o", output,
    ]
    let strict = try runReactorTrace(arguments + ["--strict"])
    #expect(strict.exitCode == 3)
    #expect(
      strict.standardError
        == "reactor-trace: error (--strict): \(output): line 5: the run was not finished: the "
        + "trace ends at 0.1 s with 1 effect still running (effect 1 'increase' of action 1); "
        + "4 complete events read\n")
    #expect(!FileManager.default.fileExists(atPath: output))

    let recorded = try runReactorTrace(arguments)
    #expect(recorded.exitCode == 0)
    #expect(recorded.standardError.hasPrefix("reactor-trace: warning: \(output): line 5: "))
    let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
    #expect(
      lines.last?.hasSuffix(
        #""kind":"end","observed":3,"dropped":0,"running":[{"action":1,"effect":1,"name":"increase"}]}"#
      ) == true)
    let replayed = try runReactorTrace(["replay", output, "--mode", "mutate"])
    #expect(replayed.exitCode == 0)
    #expect(replayed.standardError.contains("the run was not finished"))
    #expect(replayed.standardOutput.hasPrefix("match (incomplete trace: 1 warning): "))
  }
}
