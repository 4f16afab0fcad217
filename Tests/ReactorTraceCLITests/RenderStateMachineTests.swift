import Foundation
import Testing

@Suite("reactor-trace render: state machines and raster limits, end to end")
struct RenderStateMachineTests {
  @Test func transitionsDrawAStateMachineByDefault() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("search.dot")
    let result = try runReactorTrace([
      "render", "transitions", "Traces/github-search.trace.jsonl", "-o", output,
    ])

    #expect(result.exitCode == 0)
    #expect(result.standardOutput.hasPrefix("wrote \(output): 6 states,"))
    #expect(result.standardError.isEmpty)
    let dot = try String(contentsOfFile: output, encoding: .utf8)
    #expect(dot.contains("How fields are drawn:"))
    #expect(dot.contains("query: empty / non-empty"))
  }

  @Test func wholeStateDrawsEveryDistinctState() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("search.dot")
    let result = try runReactorTrace([
      "render", "transitions", "Traces/github-search.trace.jsonl", "--whole-state", "-o", output,
    ])

    #expect(result.exitCode == 0)
    #expect(result.standardOutput.hasPrefix("wrote \(output): 18 states,"))
  }

  @Test func aFieldOverrideChangesHowOneFieldIsDrawn() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("search.dot")
    let result = try runReactorTrace([
      "render", "transitions", "Traces/github-search.trace.jsonl", "--field", "repos=count",
      "-o", output,
    ])

    #expect(result.exitCode == 0)
    let dot = try String(contentsOfFile: output, encoding: .utf8)
    #expect(dot.contains("repos: 8 items"))
    #expect(dot.contains("repos: item count (chosen)"))
  }

  @Test func aMalformedFieldOverrideIsAUsageError() throws {
    let scratch = try ScratchDirectory()
    let result = try runReactorTrace([
      "render", "transitions", "Traces/counter.trace.jsonl", "--field", "value=sideways",
      "-o", scratch.file("counter.svg"),
    ])

    #expect(result.exitCode == 64)
    #expect(result.standardError.contains("--field value=sideways"))
    #expect(scratch.contents.isEmpty)
  }

  @Test func anOverrideOfAFieldNoStateHasExitsWith2NamingTheFields() throws {
    let scratch = try ScratchDirectory()
    let result = try runReactorTrace([
      "render", "transitions", "Traces/counter.trace.jsonl", "--field", "nope=count",
      "-o", scratch.file("counter.svg"),
    ])

    #expect(result.exitCode == 2)
    #expect(
      result.standardError
        == "reactor-trace: no state has a field 'nope'; the fields are alertMessage, isLoading, value\n"
    )
    #expect(scratch.contents.isEmpty)
  }

  @Test func aTimelineTooWideForAPNGIsSplitIntoPagesOrRefusedWithAHint() throws {
    let scratch = try ScratchDirectory()
    var script = [#"{"reactor": "ReactorExamples.CounterReactor", "meta": {"limit": "1000000"}}"#]
    script += (0..<60).map { #"{"t": \#($0 * 500), "action": "increase"}"# }
    let actions = scratch.file("long.actions.jsonl")
    try (script.joined(separator: "\n") + "\n").write(
      toFile: actions, atomically: true, encoding: .utf8)
    let trace = scratch.file("long.trace.jsonl")
    #expect(try runReactorTrace(["record", "--actions", actions, "-o", trace]).exitCode == 0)

    let split = try runReactorTrace(["render", "timeline", trace, "-o", scratch.file("t.png")])

    #expect(split.exitCode == 0)
    #expect(split.standardError.isEmpty)
    #expect(split.standardOutput.contains("(split into "))
    let pages = scratch.contents.filter { $0.hasSuffix(".png") }
    #expect(pages.count > 1)
    for page in pages {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch.file(page)))
      // The IHDR chunk: width and height, big-endian, at bytes 16 and 20.
      let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
      let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
      #expect(width <= 32_767)
      #expect(height > 300)
    }

    let refused = try runReactorTrace([
      "render", "timeline", trace, "--page-size", "2000", "-o", scratch.file("r.png"),
    ])

    #expect(refused.exitCode == 2)
    #expect(refused.standardError.contains("use a smaller --page-size"))
    #expect(refused.standardError.split(separator: "\n").count == 1)
    #expect(!scratch.contents.contains { $0.hasPrefix("r") })
  }
}

@Suite("reactor-trace render transitions: option combinations")
struct RenderTransitionsOptionTests {
  @Test(arguments: [
    ["--whole-state", "--key", "isLoading"], ["--whole-state", "--field", "value=omit"],
    ["--key", "isLoading", "--field", "value=omit"],
  ])
  func abstractionsThatExcludeEachOtherAreAUsageError(options: [String]) throws {
    let scratch = try ScratchDirectory()
    let result = try runReactorTrace(
      ["render", "transitions", "Traces/counter.trace.jsonl"] + options
        + ["-o", scratch.file("c.svg")])

    #expect(result.exitCode == 64)
    #expect(result.standardError.contains("cannot be combined"))
    #expect(scratch.contents.isEmpty)
  }
}
