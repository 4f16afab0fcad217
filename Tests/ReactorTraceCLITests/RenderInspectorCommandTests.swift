import Foundation
import Testing

@Suite("reactor-trace render inspector and perfetto, end to end")
struct RenderInspectorCommandTests {
  @Test func inspectorWritesOnePageAndSaysWhatItHolds() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("run.html")
    let result = try runReactorTrace([
      "render", "inspector", "Traces/github-search.trace.jsonl", "-o", output,
    ])
    #expect(result.exitCode == 0)
    #expect(result.standardOutput == "wrote \(output): 48 events, 1 state snapshot\n")
    #expect(result.standardError.isEmpty)
    let html = try String(contentsOfFile: output, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(scratch.contents == ["run.html"])
  }

  @Test func inspectorSaysWhenTheTraceWasCut() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("run.html")
    let result = try runReactorTrace([
      "render", "inspector", "Traces/counter.trace.jsonl", "--max-events", "4", "-o", output,
    ])
    #expect(result.exitCode == 0)
    #expect(
      result.standardOutput == "wrote \(output): 4 events of 19 (--max-events), 1 state snapshot\n"
    )
  }

  @Test(arguments: [
    ["--whole-state", "--key", "query"], ["--key", "query", "--field", "repos=count"],
    ["--field", "repos=sideways"], ["--key", ""],
  ])
  func inspectorRefusesTheDiagramOptionsRenderTransitionsRefuses(_ options: [String]) throws {
    let scratch = try ScratchDirectory()
    for command in ["transitions", "inspector"] {
      let result = try runReactorTrace(
        ["render", command, "Traces/github-search.trace.jsonl", "-o", scratch.file("out.svg")]
          + options)
      #expect(result.exitCode == 64, "\(command)")
      #expect(result.standardError.hasPrefix("Error: --"), "\(command)")
    }
    #expect(scratch.contents.isEmpty)
  }

  @Test(arguments: [["--key", "nosuch"], ["--field", "nosuch=value"]])
  func inspectorRefusesAFieldTheTraceLacksAsRenderTransitionsDoes(_ options: [String]) throws {
    let scratch = try ScratchDirectory()
    var messages: [String] = []
    for command in ["transitions", "inspector"] {
      let result = try runReactorTrace(
        ["render", command, "Traces/github-search.trace.jsonl", "-o", scratch.file("out.svg")]
          + options)
      #expect(result.exitCode == 2, "\(command)")
      messages.append(result.standardError)
    }
    #expect(messages[0] == messages[1])
    #expect(messages[0].contains("nosuch"))
    #expect(scratch.contents.isEmpty)
  }

  @Test func inspectorTakesFieldOverridesAndWholeStates() throws {
    let scratch = try ScratchDirectory()
    for options in [["--field", "repos=count"], ["--whole-state"]] {
      let output = scratch.file("run.html")
      let result = try runReactorTrace(
        ["render", "inspector", "Traces/github-search.trace.jsonl", "-o", output] + options)
      #expect(result.exitCode == 0, "\(options)")
      #expect(result.standardError.isEmpty)
    }
  }

  @Test func perfettoWritesTraceEvents() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("run.json")
    let result = try runReactorTrace([
      "render", "perfetto", "Traces/counter.trace.jsonl", "-o", output,
    ])
    #expect(result.exitCode == 0)
    #expect(result.standardOutput.hasPrefix("wrote \(output): "))
    #expect(result.standardError.isEmpty)
    let json = try String(contentsOfFile: output, encoding: .utf8)
    #expect(json.hasPrefix(#"{"traceEvents":["#))
  }

  @Test(arguments: ["inspector", "perfetto"])
  func anUnreadableTraceExitsWithCode2AndOneLine(_ command: String) throws {
    let scratch = try ScratchDirectory()
    let result = try runReactorTrace([
      "render", command, "Traces/no-such.trace.jsonl", "-o", scratch.file("out"),
    ])
    #expect(result.exitCode == 2)
    #expect(result.standardError.hasPrefix("reactor-trace: "))
    #expect(result.standardError.filter { $0 == "\n" }.count == 1)
    #expect(scratch.contents.isEmpty)
  }

  @Test(arguments: ["inspector", "perfetto"])
  func aTornTraceIsWrittenWithWarningsAndRefusedUnderStrict(_ command: String) throws {
    let scratch = try ScratchDirectory()
    let trace = scratch.file("torn.trace.jsonl")
    let whole = try Data(
      contentsOf: URL(fileURLWithPath: repositoryRoot + "/Traces/counter.trace.jsonl"))
    try whole.dropLast(20).write(to: URL(fileURLWithPath: trace))
    let output = scratch.file("out")
    let result = try runReactorTrace(["render", command, trace, "-o", output])
    #expect(result.exitCode == 0)
    #expect(
      result.standardError.hasPrefix("reactor-trace: warning: \(trace): line 20 is incomplete"))
    #expect(FileManager.default.fileExists(atPath: output))
    try FileManager.default.removeItem(atPath: output)
    let strict = try runReactorTrace(["render", command, trace, "-o", output, "--strict"])
    #expect(strict.exitCode == 3)
    #expect(strict.standardError.contains("error (--strict): \(trace): line 20 is incomplete"))
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test(arguments: ["inspector", "perfetto"])
  func theOutputNeverOverwritesTheTrace(_ command: String) throws {
    let scratch = try ScratchDirectory()
    let trace = scratch.file("copy.trace.jsonl")
    try FileManager.default.copyItem(
      atPath: repositoryRoot + "/Traces/counter.trace.jsonl", toPath: trace)
    let before = try Data(contentsOf: URL(fileURLWithPath: trace))
    let result = try runReactorTrace(["render", command, trace, "-o", trace])
    #expect(result.exitCode == 2)
    #expect(result.standardError.contains("is the input"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == before)
  }
}
