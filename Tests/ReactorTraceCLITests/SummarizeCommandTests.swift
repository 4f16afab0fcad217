import Foundation
import Testing

@Suite("reactor-trace summarize and the fleet commands on sessions, end to end")
struct SummarizeCommandTests {
  private let session = "Traces/taskapp.session.jsonl"

  /// The summary lines of a file, as JSON objects.
  private func lines(_ path: String) throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try #require(
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  @Test func aSessionIsSummarizedOneLinePerReactorTypeAndTransition() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("s.summary.jsonl")
    let result = try runReactorTrace(["summarize", session, "-o", output])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardError.isEmpty)
    #expect(result.standardOutput.hasPrefix("wrote \(output): "))
    let summary = try lines(output)
    #expect(
      Set(summary.compactMap { $0["reactor"] as? String }) == [
        "ReactorExamples.TaskAppListReactor", "ReactorExamples.TaskCellReactor",
        "ReactorExamples.TaskEditReactor",
      ])
    #expect(summary.allSatisfy { $0["traces"] as? Int == 1 })
  }

  @Test func aFolderGlobOfTracesScriptsAndASessionSkipsTheScriptsNamingEach() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("all.summary.jsonl")
    let result = try runReactorTrace(["summarize", "Traces/*.jsonl", "-o", output])
    #expect(result.exitCode == 0, "\(result.standardError)")
    let skipped = result.standardError.split(separator: "\n")
    let scripts = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/Traces")
      .filter { $0.hasSuffix(".actions.jsonl") || $0.hasSuffix(".script.jsonl") }
    #expect(skipped.count == scripts.count)
    for script in scripts {
      #expect(skipped.contains { $0.hasPrefix("reactor-trace: skipped: 'Traces/\(script)'") })
    }
    #expect(!result.standardError.contains("--merge"))
    #expect(result.standardOutput.contains("from 6 traces"))
    let reactors = Set(try lines(output).compactMap { $0["reactor"] as? String })
    #expect(reactors.contains("ReactorExamples.CounterReactor"))
    #expect(reactors.contains("ReactorExamples.TaskCellReactor"))
  }

  @Test func aSessionsSummaryMergesWithTracesSummaries() throws {
    let scratch = try ScratchDirectory()
    let sessionSummary = scratch.file("session.summary.jsonl")
    let traceSummary = scratch.file("counter.summary.jsonl")
    let merged = scratch.file("merged.summary.jsonl")
    #expect(try runReactorTrace(["summarize", session, "-o", sessionSummary]).exitCode == 0)
    #expect(
      try runReactorTrace(["summarize", "Traces/counter.trace.jsonl", "-o", traceSummary])
        .exitCode == 0)
    let result = try runReactorTrace([
      "summarize", "--merge", sessionSummary, traceSummary, session, "-o", merged,
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      result.standardOutput.hasSuffix(
        "from 1 trace (\(try eventCount(session)) events) and 2 summaries\n"))
    let lines = try lines(merged)
    let sessionLines = try self.lines(sessionSummary)
    #expect(lines.count == sessionLines.count + (try self.lines(traceSummary)).count)
    // The session counted twice (its summary and itself), the counter once.
    #expect(
      lines.filter { ($0["reactor"] as? String)?.hasPrefix("ReactorExamples.Task") == true }
        .allSatisfy { $0["traces"] as? Int == 2 })
    #expect(
      lines.filter { $0["reactor"] as? String == "ReactorExamples.CounterReactor" }
        .allSatisfy { $0["traces"] as? Int == 1 })
  }

  private func eventCount(_ path: String) throws -> Int {
    try String(contentsOfFile: repositoryRoot + "/" + path, encoding: .utf8)
      .split(separator: "\n").count - 1
  }

  @Test func theProductionDiagramOfASessionsSummaryPicksAReactorType() throws {
    let scratch = try ScratchDirectory()
    let summary = scratch.file("s.summary.jsonl")
    #expect(try runReactorTrace(["summarize", session, "-o", summary]).exitCode == 0)
    let output = scratch.file("cells.dot")
    let result = try runReactorTrace([
      "render", "transitions", "--summary", summary, "--reactor", "TaskCellReactor", "-o",
      output,
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("production mutations"))
    #expect(try String(contentsOfFile: output, encoding: .utf8).contains("toggle"))
    let unpicked = try runReactorTrace([
      "render", "transitions", "--summary", summary, "-o", scratch.file("x.dot"),
    ])
    #expect(unpicked.exitCode == 2)
    #expect(unpicked.standardError.contains("choose one with --reactor"))
  }

  @Test func productionCoverageTakesASessionsSummaryAndSessionsAsGoldenFiles() throws {
    let scratch = try ScratchDirectory()
    let summary = scratch.file("s.summary.jsonl")
    #expect(try runReactorTrace(["summarize", session, "-o", summary]).exitCode == 0)
    let result = try runReactorTrace([
      "coverage", "--production", summary, "--reactor", "ReactorExamples.TaskAppListReactor",
      session, "--max-states", "50", "--json",
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(report["reactor"] as? String == "ReactorExamples.TaskAppListReactor")
    #expect(report["exercisedShare"] as? Double == 1)
    #expect((report["missedTransitions"] as? [Any])?.isEmpty == true)
  }
}
