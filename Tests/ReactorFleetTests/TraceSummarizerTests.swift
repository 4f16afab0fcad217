import Foundation
import ReactorDiagrams
import ReactorFleet
import ReactorTracing
import Testing

/// The committed example traces, found from this file's path.
let tracesDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Traces").path

@Suite("Trace summaries")
struct TraceSummarizerTests {
  private let counter = tracesDirectory + "/counter.trace.jsonl"

  private func summarize(
    _ path: String, _ abstraction: StateAbstraction
  ) throws -> [TransitionSummary] {
    try TraceSummarizer(abstraction: abstraction).summarize(SessionReader(path: path))
  }

  @Test func everyMutationIsCountedOnceAndItsEffectsOutcomesAddUp() throws {
    let lines = try summarize(counter, StateAbstraction(keys: ["value"]))
    let trace = try Trace(contentsOf: counter)
    let mutations = trace.events.filter {
      if case .mutation = $0.kind { return true }
      return false
    }
    #expect(lines.map(\.count).reduce(0, +) == mutations.count)
    for line in lines {
      #expect(line.outcomes.total == line.count)
      #expect(line.traces == 1)
      #expect(line.first <= line.last)
      #expect(line.key.reactor == "ReactorExamples.CounterReactor")
      #expect(line.key.timeBase == "trace")
    }
    // At value 1, the first increase's effect sends setLoading(false) and the second's
    // setLoading(true): under `value` alone one loop, seen twice, both effects finished.
    let loop = try #require(
      lines.first {
        $0.key.from == "value=1" && $0.key.mutation == "setLoading" && $0.key.action == "increase"
      })
    #expect(loop.key.action == "increase")
    #expect(loop.key.to == "value=1")
    #expect(loop.count == 2)
    #expect(loop.outcomes.finished == 2)
    // decrease returns its mutations synchronously.
    let decrease = try #require(lines.first { $0.key.mutation == "decreaseValue" })
    #expect(decrease.key.from == "value=2" && decrease.key.to == "value=1")
    #expect(decrease.outcomes.sync == 1)
  }

  @Test func mutationsOfAnEffectCancelledLaterAreCountedAsCancelled() throws {
    // The last follow sends setRequesting(true), then an unfollow cancels it.
    let lines = try summarize(
      tracesDirectory + "/profile.trace.jsonl", StateAbstraction(keys: ["isRequesting"]))
    let cancelled = lines.filter { $0.outcomes.cancelled > 0 }
    #expect(cancelled.map(\.key.action) == ["follow"])
    #expect(cancelled.map(\.key.mutation) == ["setRequesting"])
    #expect(lines.contains { $0.outcomes.finished > 0 })
  }

  @Test func streamMutationsNameTheirStream() throws {
    let lines = try summarize(tracesDirectory + "/tasklist.trace.jsonl", .wholeState)
    #expect(lines.contains { $0.key.action == "stream taskService" && $0.outcomes.sync > 0 })
  }

  @Test func mergingTwoSummariesOfOneTraceDoublesCountsAndKeepsTimes() throws {
    let lines = try summarize(counter, StateAbstraction(keys: ["isLoading"]))
    var set = SummarySet()
    for line in lines + lines {
      let added = set.add(line)
      #expect(added)
    }
    let merged = set.summaries
    #expect(merged.count == lines.count)
    for (single, double) in zip(lines, merged) {
      #expect(double.key == single.key)
      #expect(double.count == 2 * single.count)
      #expect(double.traces == 2)
      #expect(double.first == single.first && double.last == single.last)
    }
  }

  @Test func summaryLinesReadBackAsTheyWereWritten() throws {
    let lines = try summarize(counter, .wholeState)
    var set = SummarySet()
    try set.add(jsonLines: SummarySet.jsonLines(lines), name: "lines")
    #expect(set.summaries == lines)
  }

  @Test func aLineWhoseOutcomesDoNotAddUpIsRefusedNamingItsLine() throws {
    let good = try summarize(counter, .wholeState)[0]
    var bad = good
    bad.count += 1
    var set = SummarySet()
    let bytes = SummarySet.jsonLines([good, bad])
    #expect {
      try set.add(jsonLines: bytes, name: "s.jsonl")
    } throws: { error in
      (error as? FleetError)?.description
        == "s.jsonl:2: not a transition summary: 'outcomes' add up to \(good.count), not 'count' (\(good.count + 1))"
    }
  }

  @Test func countsThatWouldOverflowAreRefused() throws {
    var line = try summarize(counter, .wholeState)[0]
    line.count = Int.max
    line.outcomes = TransitionSummary.Outcomes(sync: Int.max)
    var set = SummarySet()
    let first = set.add(line)
    let second = set.add(line)
    #expect(first)
    #expect(!second)
    #expect(set.summaries == [line])
  }

  @Test func aWallClockOriginMakesTimesUnixNanoseconds() throws {
    var trace = try Trace(contentsOf: counter)
    trace.header.clock.origin = "2026-11-22T09:30:00.123Z"
    let reader = try SessionReader(bytes: trace.serialized, name: "origin")
    let lines = try TraceSummarizer(abstraction: .wholeState).summarize(reader)
    let earliest = try #require(lines.map(\.first).min())
    // 2026-11-22T09:30:00.123Z is 1,795,339,800.123 s after the epoch.
    #expect(earliest == 1_795_339_800_123_000_000)
    #expect(lines.allSatisfy { $0.key.timeBase == "unix" })
  }

  @Test(arguments: [
    "whole", "key:isLoading,user.name", "fields:alertMessage=event,isLoading=value,value=count",
  ])
  func abstractionTextReadsBackToTheSameAbstraction(_ text: String) throws {
    let abstraction = try StateAbstraction(summaryText: text)
    #expect(abstraction.summaryText == text)
  }

  @Test func abstractionTextEscapesSeparatorsInNames() throws {
    let abstraction = StateAbstraction(rules: [FieldRule(name: "a,b=c:d%", abstraction: .value)])
    let text = abstraction.summaryText
    #expect(text == "fields:a%2Cb%3Dc%3Ad%25=value")
    #expect(try StateAbstraction(summaryText: text).rules.map(\.name) == ["a,b=c:d%"])
  }

  @Test func unknownAbstractionTextIsRefused() {
    #expect(throws: FleetError.self) { try StateAbstraction(summaryText: "fields:x=sometimes") }
    #expect(throws: FleetError.self) { try StateAbstraction(summaryText: "nodes:x") }
  }

  @Test func gzippedSummariesReadLikePlainOnes() throws {
    let lines = try summarize(counter, .wholeState)
    let plain = SummarySet.jsonLines(lines)
    let zipped = FleetFiles.encoded(plain, for: "x.jsonl.gz")
    #expect(zipped.starts(with: [0x1f, 0x8b]))
    let path = NSTemporaryDirectory() + "fleet-\(UUID().uuidString).summary.jsonl.gz"
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data(zipped).write(to: URL(fileURLWithPath: path))
    #expect(try FleetFiles.contents(of: path) == plain)
    // Cut short, it is refused with a reason rather than read as far as it goes.
    try Data(zipped.prefix(zipped.count / 2)).write(to: URL(fileURLWithPath: path))
    #expect(throws: FleetError.self) { try FleetFiles.contents(of: path) }
  }
}
