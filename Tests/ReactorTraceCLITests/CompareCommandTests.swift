import Foundation
import ReactorDiagrams
import Testing

/// Summary lines of a search reactor at one app version: searches that find results, find
/// nothing, or (when given) fail.
private func searchSummaries(
  version: String, results: Int, empty: Int, failure: Int = 0
) -> String {
  func line(_ from: String, _ action: String, _ mutation: String, _ to: String, _ count: Int)
    -> String
  {
    """
    {"abstraction":"fields:phase=value","action":"\(action)","appVersion":"\(version)",\
    "count":\(count),"first":0,"from":"phase=\(from)","last":0,"metadata":{},\
    "mutation":"\(mutation)","outcomes":{"cancelled":0,"failed":0,"finished":\(count),\
    "running":0,"sync":0},"reactor":"App.SearchReactor","schema":"s","timeBase":"trace",\
    "to":"phase=\(to)","traces":1}
    """
  }
  var lines = [
    line("idle", "search", "setLoading", "loading", results + empty + failure),
    line("loading", "load", "setResults", "results", results),
    line("loading", "load", "setEmpty", "empty", empty),
  ]
  if failure > 0 { lines.append(line("loading", "load", "setError", "failed", failure)) }
  return lines.joined(separator: "\n") + "\n"
}

@Suite("reactor-trace compare, end to end")
struct CompareCommandTests {
  /// A before and an after summary file: empty results 1.5 times as often, a failure path
  /// added.
  private func writeSides(in scratch: borrowing ScratchDirectory) throws -> (String, String) {
    let before = scratch.file("before.summary.jsonl")
    let after = scratch.file("after.summary.jsonl")
    try searchSummaries(version: "3.1.4", results: 4_500, empty: 500)
      .write(toFile: before, atomically: true, encoding: .utf8)
    try searchSummaries(version: "3.2.0", results: 4_200, empty: 750, failure: 50)
      .write(toFile: after, atomically: true, encoding: .utf8)
    return (before, after)
  }

  @Test func twoSummaryFilesThatDifferReportEachChangeRankedAndExitOne() throws {
    let scratch = try ScratchDirectory()
    let (before, after) = try writeSides(in: scratch)
    let result = try runReactorTrace(["compare", before, after])
    #expect(result.exitCode == 1, "\(result.standardError)")
    #expect(result.standardError.isEmpty)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines[1] == "3 significant changes, ranked:")
    #expect(
      lines[2]
        == "  after: SearchReactor: new setError ← load to {phase=failed}, 50 of 5,000 leaving "
        + "{phase=loading}, none of 5,000 in before, p < 0.001")
    #expect(
      lines.contains(
        "  after: SearchReactor: setEmpty ← load 1.5× as often, 500 of 5,000 → 750 of 5,000 "
          + "leaving {phase=loading}, p < 0.001"))
  }

  @Test func oneSetSplitByAppVersionComparesTheTwoVersions() throws {
    let scratch = try ScratchDirectory()
    let (before, after) = try writeSides(in: scratch)
    let set = scratch.file("fleet.summary.jsonl")
    try
      (String(contentsOfFile: before, encoding: .utf8)
      + String(contentsOfFile: after, encoding: .utf8))
      .write(toFile: set, atomically: true, encoding: .utf8)
    let result = try runReactorTrace([
      "compare", set, "--before", "appVersion=3.1.4", "--after", "appVersion=3.2.0",
    ])
    #expect(result.exitCode == 1, "\(result.standardError)")
    #expect(
      result.standardOutput.contains(
        "3.2.0: SearchReactor: setEmpty ← load 1.5× as often, 500 of 5,000 → 750 of 5,000"))
    let missing = try runReactorTrace([
      "compare", set, "--before", "appVersion=3.1.4", "--after", "appVersion=9.9",
    ])
    #expect(missing.exitCode == 2)
    #expect(
      missing.standardError
        == "reactor-trace: nothing to compare on the after side: no line has appVersion=9.9; "
        + "the set's app versions: 3.1.4, 3.2.0\n")
  }

  @Test func theJSONHoldsEveryChangeWithItsCountsAndAdjustedPValue() throws {
    let scratch = try ScratchDirectory()
    let (before, after) = try writeSides(in: scratch)
    let result = try runReactorTrace(["compare", before, after, "--json"])
    #expect(result.exitCode == 1)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(json["changed"] as? Bool == true)
    let changes = try #require(json["changes"] as? [[String: Any]])
    #expect(changes.map { $0["kind"] as? String } == ["added", "shift", "shift"])
    #expect((changes[0]["after"] as? [String: Any])?["count"] as? Int == 50)
    #expect((changes[0]["q"] as? Double).map { $0 < 0.001 } == true)
  }

  @Test func aSessionComparedWithItselfHasNoChangeAndExitsZero() throws {
    let session = "Traces/taskapp.session.jsonl"
    let result = try runReactorTrace(["compare", session, session])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("3 reactor types on both sides"))
    #expect(result.standardOutput.contains("no significant change"))
  }

  @Test func tracesAndTheirSummaryCompareUnderOneAbstraction() throws {
    let scratch = try ScratchDirectory()
    let summary = scratch.file("search.summary.jsonl")
    let trace = "Traces/github-search.trace.jsonl"
    #expect(try runReactorTrace(["summarize", trace, "-o", summary]).exitCode == 0)
    let result = try runReactorTrace(["compare", summary, trace])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("no significant change"))
  }

  @Test func theDiagramDrawsAddedGreenRemovedRedDashedAndShiftsByTheirRatio() throws {
    let scratch = try ScratchDirectory()
    let (before, after) = try writeSides(in: scratch)
    let dot = scratch.file("diff.dot")
    #expect(try runReactorTrace(["compare", after, before, "-o", dot]).exitCode == 1)
    let graph = try String(contentsOfFile: dot, encoding: .utf8)
    // Seen the other way round, the failure path is removed.
    let removed = try #require(graph.split(separator: "\n").first { $0.contains("setError") })
    #expect(removed.contains("#d7191c") && removed.contains("dashed"))
    let shifted = try #require(graph.split(separator: "\n").first { $0.contains("setEmpty") })
    #expect(shifted.contains("#2166ac") && shifted.contains("\"penwidth\"=\"0.8\""))
    #expect(try runReactorTrace(["compare", before, after, "-o", dot]).exitCode == 1)
    let forward = try String(contentsOfFile: dot, encoding: .utf8)
    let added = try #require(forward.split(separator: "\n").first { $0.contains("setError") })
    #expect(added.contains("#1a9641"))
    // Graphviz reads it, and the other formats are written.
    _ = try GraphvizRenderer().render(dot: forward, engine: .dot, format: .svg)
    for name in ["diff.svg", "diff.png", "diff.mmd"] {
      let path = scratch.file(name)
      let result = try runReactorTrace(["compare", before, after, "-o", path])
      #expect(result.exitCode == 1, "\(result.standardError)")
      #expect(FileManager.default.fileExists(atPath: path))
    }
    let mermaid = try String(contentsOfFile: scratch.file("diff.mmd"), encoding: .utf8)
    #expect(mermaid.contains("#91;new#93;"))
  }

  @Test func unusableInputExitsTwoAndAMissingSideIsAUsageError() throws {
    let scratch = try ScratchDirectory()
    let (before, _) = try writeSides(in: scratch)
    let missing = try runReactorTrace(["compare", before, scratch.file("none.summary.jsonl")])
    #expect(missing.exitCode == 2)
    #expect(missing.standardError.contains("No such file or directory"))
    #expect(try runReactorTrace(["compare", before]).exitCode == 64)
    #expect(try runReactorTrace(["compare", before, "--before", "appVersion=1"]).exitCode == 64)
    let condition = try runReactorTrace([
      "compare", before, "--before", "appVersion", "--after", "appVersion=2",
    ])
    #expect(condition.exitCode == 2)
    #expect(condition.standardError.contains("not a metadata condition KEY=VALUE"))
  }
}
