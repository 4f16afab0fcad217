import Testing

@testable import reactor_trace_bench

/// ReactorKit's range on the machine that runs the benchmark, from our own untraced row, and
/// the ratios and targets the table gives with it.
@Suite
struct ReactorKitCalibrationTests {
  @Test func onlyTheScenariosMeasuredOnBothMachinesAreCalibrated() {
    #expect(ReactorKitCalibration(.stateLarge)?.share == 0.0284...0.0299)
    #expect(ReactorKitCalibration(.counterSync)?.share == 0.0096...0.0139)
    for scenario in [RuntimeScenario.counterConcat, .fanout, .stub] {
      #expect(ReactorKitCalibration(scenario) == nil)
    }
  }

  @Test func reactorKitsRangeIsOurUntracedThroughputTimesItsShare() throws {
    let stateLarge = try #require(ReactorKitCalibration(.stateLarge))
    let range = try #require(stateLarge.reactorKit(ourUntraced: 5_000_000))
    #expect(abs(range.lowerBound - 142_000) < 1e-6)
    #expect(abs(range.upperBound - 149_500) < 1e-6)
  }

  @Test func aRatioRunsFromReactorKitsHighestEstimateToItsLowest() throws {
    let counterSync = try #require(ReactorKitCalibration(.counterSync))
    let ratio = try #require(counterSync.ratio(of: 1_000_000, ourUntraced: 10_000_000))
    #expect(abs(ratio.lowerBound - 1_000_000 / 139_000.0) < 1e-9)
    #expect(abs(ratio.upperBound - 1_000_000 / 96_000.0) < 1e-9)
    #expect(Formatting.decimal(ratio.lowerBound, digits: 1) == "7.2")
    #expect(Formatting.decimal(ratio.upperBound, digits: 1) == "10.4")
  }

  @Test(arguments: [0.0, -1, .nan, .infinity])
  func aThroughputThatIsNotPositiveGivesNoRange(figure: Double) throws {
    let counterSync = try #require(ReactorKitCalibration(.counterSync))
    #expect(counterSync.reactorKit(ourUntraced: figure) == nil)
    #expect(counterSync.ratio(of: figure, ourUntraced: 10_000_000) == nil)
    #expect(counterSync.ratio(of: 1_000_000, ourUntraced: figure) == nil)
  }

  @Test func aMultipleIsMetOnlyAgainstReactorKitsHighestEstimate() {
    let reactorKit = 48_000.0...69_500.0
    #expect(ReactorKitCalibration.meets(5, throughput: 347_500, reactorKit: reactorKit))
    #expect(!ReactorKitCalibration.meets(5, throughput: 347_499, reactorKit: reactorKit))
    #expect(!ReactorKitCalibration.meets(5, throughput: 300_000, reactorKit: reactorKit))
  }

  @Test func theTableCalibratesEachRowAgainstTheUntracedRowOfItsScenario() throws {
    let rows = BenchPlan(directory: "/tmp/unused", divisor: 1).rows
    // counter-sync: 1,000,000 actions untraced in 0.2 s (5 M/s), to a file in 2 s (500 k/s).
    let untraced = try Self.result(of: "counter-sync/untraced", in: rows, seconds: 0.2)
    let file = try Self.result(of: "counter-sync/file", in: rows, seconds: 2)
    let concat = try Self.result(of: "counter-concat/untraced", in: rows, seconds: 0.1)
    let table = ResultTable(results: [untraced, file, concat], runs: 1, isQuick: false)

    let calibrated = table.results.map(\.calibratedReactorKit)
    for range in calibrated.prefix(2) {
      let range = try #require(range)
      #expect(abs(range.lowerBound - 48_000) < 1e-6 && abs(range.upperBound - 69_500) < 1e-6)
    }
    #expect(calibrated[2] == nil)
    let text = table.text
    #expect(text.contains("157,634 actions/s (AMD 2026-11-25); here 48,000–69,500 (calibrated)"))
    // 500,000 / 69,500 and / 48,000; against the fixed figure 500,000 / 157,634.
    #expect(text.contains("| 7.2–10.4× (calibrated); 3.2× (AMD 2026-11-25) |"))
    // counter-concat has no calibration: the fixed figure only.
    #expect(text.contains("| 64,918 actions/s (AMD 2026-11-25) | 46.2× (AMD 2026-11-25) |"))
    #expect(text.contains("counter-sync 0.96–1.39 %, state-large 2.84–2.99 %"))
    // state-large's share is narrow: a second decimal where one would show `1.3–1.3×`.
    let stateLarge = try Self.result(of: "state-large/untraced", in: rows, seconds: 0.1)
    let stateLargeFile = try Self.result(of: "state-large/file", in: rows, seconds: 2.65)
    let narrow = ResultTable(results: [stateLarge, stateLargeFile], runs: 1, isQuick: false)
    // 200,000 actions in 2.65 s against 2 M/s × 2.84–2.99 %: 1.3× at one decimal.
    #expect(narrow.text.contains("| 1.26–1.33× (calibrated); 0.5× (AMD 2026-11-25) |"))
    // 5× ReactorKit: 500,000 ≥ 5 × 69,500 here, though not 5 × the AMD figure (788,170).
    #expect(table.results[1].unmetTargets.isEmpty)
    #expect(text.contains("| ≥ 5× ReactorKit, ≤ 64 MiB |"))
  }

  @Test func withoutItsUntracedRowATargetIsJudgedAgainstTheFixedFigure() throws {
    let rows = BenchPlan(directory: "/tmp/unused", divisor: 1).rows
    let file = try Self.result(of: "counter-sync/file", in: rows, seconds: 2)
    let table = ResultTable(results: [file], runs: 1, isQuick: false)
    #expect(table.results[0].calibratedReactorKit == nil)
    #expect(table.results[0].unmetTargets == [.timesReactorKit(atLeast: 5)])
    #expect(!table.text.contains("calibrated"))
  }

  @Test func theCalibrationStartsFromTheFastestUntracedRunNotTheMedian() throws {
    let rows = BenchPlan(directory: "/tmp/unused", divisor: 1).rows
    // state-large: 200,000 actions untraced in 0.07, 0.04 and 0.069 s (2.86 M, 5 M, 2.90 M a
    // second), to a file in 1.25 s (160,000 a second).
    let untraced = try Self.result(
      of: "state-large/untraced", in: rows, seconds: 0.07, 0.04, 0.069)
    let file = try Self.result(of: "state-large/file", in: rows, seconds: 1.25)
    let table = ResultTable(results: [untraced, file], runs: 3, isQuick: false)
    // 5 M × 2.84–2.99 %, not the median's 2.90 M × the share.
    let range = try #require(table.results[1].calibratedReactorKit)
    #expect(abs(range.lowerBound - 142_000) < 1e-6 && abs(range.upperBound - 149_500) < 1e-6)
    // 160,000 / 149,500 and / 142,000: short of 2×, where the median would have read 1.8–1.9×.
    #expect(table.text.contains("| 1.07–1.13× (calibrated);"))
    #expect(table.text.contains("the fastest run of this run's untraced row"))
    // Issue 44's 2×, judged against ReactorKit's highest estimate: missed here, met by
    // 300,000 actions a second (2.007× 149,500), not by 297,000 (1.987×, which the table
    // rounds to 2.0).
    #expect(table.results[1].unmetTargets == [.timesReactorKit(atLeast: 2)])
    #expect(table.text.contains("| ≥ 2× ReactorKit, ≤ 64 MiB |"))
    for (seconds, isMet) in [(200_000.0 / 300_000, true), (200_000.0 / 297_000, false)] {
      let faster = try Self.result(of: "state-large/file", in: rows, seconds: seconds)
      let judged = ResultTable(results: [untraced, faster], runs: 3, isQuick: false)
      #expect(judged.results[1].unmetTargets.isEmpty == isMet, "\(seconds) s")
    }
  }

  /// A result of the row `id` with a run for each of `seconds`, each taking it for the row's
  /// count.
  private static func result(
    of id: String, in rows: [BenchRow], seconds: Double...
  ) throws -> RowResult {
    let row = try #require(rows.first { $0.id == id })
    return RowResult(
      row: row,
      runs: seconds.map { .init(seconds: $0, units: row.count, maximumResidentBytes: 20 << 20) })
  }
}
