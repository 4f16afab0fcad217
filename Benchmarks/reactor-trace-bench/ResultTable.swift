/// The benchmark's output: Markdown tables of the results, the trace sizes and the memory of
/// streaming passes as the trace grows.
struct ResultTable {
  /// The measured rows, in order, each calibrated against ReactorKit where it can be.
  let results: [RowResult]
  /// Runs per row.
  let runs: Int
  /// Whether sizes were divided by 10.
  let isQuick: Bool

  /// The table of `results`, whose rows of a calibrated scenario get ReactorKit's range on this
  /// machine from the untraced row of the same scenario among them.
  init(results: [RowResult], runs: Int, isQuick: Bool) {
    self.results = Self.calibrating(results)
    self.runs = runs
    self.isQuick = isQuick
  }

  /// `results`, with ``RowResult/calibratedReactorKit`` set on every row compared with
  /// ReactorKit whose scenario has a calibration and whose untraced row was run, from that
  /// row's fastest run: on one machine our untraced state-large ran at 2.9 M or 4.8 M actions a
  /// second from one 0.05 s run to the next, and the median of a slow pair would have put
  /// ReactorKit's estimate 40 % low and every ratio to it two-thirds too high.
  static func calibrating(_ results: [RowResult]) -> [RowResult] {
    results.map { result in
      guard result.row.reactorKit != nil,
        let scenario = RuntimeScenario(rawValue: result.row.scenario),
        let calibration = ReactorKitCalibration(scenario),
        let untraced = results.first(where: {
          $0.row.id == "\(scenario.rawValue)/\(TracingMode.untraced.rawValue)"
        })
      else { return result }
      var calibrated = result
      calibrated.calibratedReactorKit = calibration.reactorKit(
        ourUntraced: untraced.fastestThroughput)
      return calibrated
    }
  }

  /// The state-large trace's bytes per event must be at most this share of the full state.
  static let stateSizeTarget = 0.05

  /// Everything, ready to print.
  var text: String {
    var lines: [String] = []
    if isQuick { lines.append("**--quick: sizes divided by 10, not a measurement.**\n") }
    lines.append(
      "Medians of \(runs) run\(runs == 1 ? "" : "s"), each in its own process; "
        + "max RSS is the largest of the runs.\n")
    lines += mainTable + reactorKitNote
    let sizes = sizeTable
    if !sizes.isEmpty { lines += [""] + sizes }
    let memory = memoryTable
    if !memory.isEmpty { lines += [""] + memory }
    let targets = results.flatMap(\.row.targets).count + sizeTargetCount
    let missed = results.flatMap(\.unmetTargets).count + sizeTargetMissed
    lines += ["", "Targets met: \(targets - missed) of \(targets)."]
    return lines.joined(separator: "\n")
  }

  private var mainTable: [String] {
    var lines = [
      "| scenario | mode | N | median throughput | median s | max RSS MiB | target "
        + "| ReactorKit | ratio | result |",
      "|---|---|--:|--:|--:|--:|---|--:|--:|---|",
    ]
    for result in results {
      let row = result.row
      var throughput = "\(Formatting.grouped(result.throughput)) \(row.unit)/s"
      if row.showsMegabytes, let bytes = result.bytesPerSecond {
        throughput += ", \(Formatting.decimal(bytes / 1e6, digits: 1)) MB/s"
      }
      let losses = result.runs.compactMap(\.report).filter { $0.lost != nil }
      if let worst = losses.max(by: { $0.lost! < $1.lost! }), let lost = worst.lost {
        throughput =
          "at most \(Formatting.grouped(Double(lost))) events lost "
          + "(\(Formatting.decimal(worst.lostMilliseconds ?? 0, digits: 1)) ms) "
          + "in \(losses.count * row.count) kills"
      }
      if let latency = result.latencyMilliseconds {
        throughput =
          "p50 \(Formatting.decimal(latency.p50, digits: 1)) ms, "
          + "p95 \(Formatting.decimal(latency.p95, digits: 1)) ms, "
          + "p99 \(Formatting.decimal(latency.p99, digits: 1)) ms"
      }
      if let dropped = result.report?.dropped, let events = result.report?.events, events > 0 {
        let share = Formatting.decimal(100 * Double(dropped) / Double(events), digits: 1)
        throughput +=
          ", \(Formatting.grouped(Double(dropped))) of \(Formatting.grouped(Double(events))) "
          + "events dropped (\(share) %)"
      }
      var reactorKit = ""
      var ratio = ""
      if let fixed = row.reactorKit {
        let machine = ReactorKitCalibration.fixedFiguresMachine
        reactorKit = "\(Formatting.grouped(fixed)) \(row.unit)/s (\(machine))"
        ratio = "\(Formatting.decimal(result.throughput / fixed, digits: 1))× (\(machine))"
      }
      if let here = result.calibratedReactorKit {
        let range = Self.range(here) { Formatting.grouped($0) }
        reactorKit += "; here \(range) (calibrated)"
        if let ratios = ReactorKitCalibration.ratio(of: result.throughput, to: here) {
          // A narrow range shows a second decimal rather than `1.3–1.3×`.
          let digits =
            Formatting.decimal(ratios.lowerBound, digits: 1)
              == Formatting.decimal(ratios.upperBound, digits: 1) ? 2 : 1
          ratio =
            Self.range(ratios) { Formatting.decimal($0, digits: digits) } + "× (calibrated); "
            + ratio
        }
      }
      var outcome: String
      if row.targets.isEmpty {
        outcome = ""
      } else if result.unmetTargets.isEmpty {
        outcome = "met"
      } else {
        outcome = "**not met** (" + result.unmetTargets.map(\.text).joined(separator: ", ") + ")"
      }
      if let ratio = result.outputRatio {
        outcome += "; output \(Formatting.decimal(ratio, digits: 2))× input"
      }
      let cells = [
        row.scenario, row.mode, "\(Formatting.grouped(Double(row.count))) \(row.unit)", throughput,
        Formatting.seconds(result.seconds),
        (result.isMemoryUpperBound ? "≤ " : "")
          + Formatting.decimal(result.maximumResidentMiB, digits: 1),
        row.targets.map(\.text).joined(separator: ", "), reactorKit, ratio, outcome,
      ]
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines
  }

  /// `low–high`, each formatted by `format`.
  private static func range(
    _ range: ClosedRange<Double>, _ format: (Double) -> String
  ) -> String {
    "\(format(range.lowerBound))–\(format(range.upperBound))"
  }

  /// What the ReactorKit and ratio columns hold, printed under the table when a row has them.
  private var reactorKitNote: [String] {
    guard results.contains(where: { $0.row.reactorKit != nil }) else { return [] }
    var note =
      "ReactorKit: its untraced throughput, measured side by side on "
      + "\(ReactorKitCalibration.fixedFiguresMachine) (fixed figures: ratios to them hold only "
      + "on that machine)."
    if results.contains(where: { $0.calibratedReactorKit != nil }) {
      note +=
        " Calibrated: ReactorKit's range on this machine, the fastest run of this run's "
        + "untraced row of the same scenario times ReactorKit's share of ours measured side by "
        + "side on two machines "
        + "(" + Self.calibratedShares + "), and the ratio to that range; a target of a multiple "
        + "of ReactorKit is judged against the range's highest."
    }
    return ["", note]
  }

  /// Each calibrated scenario's share: `counter-sync 0.96–1.39 %, …`.
  private static var calibratedShares: String {
    RuntimeScenario.allCases.compactMap { scenario in
      ReactorKitCalibration(scenario).map { "\(scenario.rawValue) \($0.shareText)" }
    }.joined(separator: ", ")
  }

  /// The rows whose reports carry trace sizes: (name, result, whether it has a target).
  private var sizedTraces: [(name: String, report: ChildReport)] {
    let sources = [
      ("counter-sync/file", "counter-sync"), ("trace-write/file", "counter-concat"),
      ("state-large/file", "state-large"),
    ]
    return sources.compactMap { id, name in
      guard let report = results.first(where: { $0.row.id == id })?.report,
        report.bytes != nil, report.events != nil
      else { return nil }
      return (name, report)
    }
  }

  private var sizeTable: [String] {
    let traces = sizedTraces
    guard !traces.isEmpty else { return [] }
    var lines = [
      "| trace | events | bytes | bytes/event | full state, bytes | bytes/event ÷ full state "
        + "| target | result |",
      "|---|--:|--:|--:|--:|--:|---|---|",
    ]
    for (name, report) in traces {
      let bytes = report.bytes ?? 0
      let events = report.events ?? 0
      let perEvent = Double(bytes) / Double(max(events, 1))
      var cells = [
        name, Formatting.grouped(Double(events)), Formatting.grouped(Double(bytes)),
        Formatting.decimal(perEvent, digits: 1),
      ]
      if let full = report.fullStateBytes {
        let share = perEvent / full
        cells += [
          Formatting.decimal(full, digits: 0), "\(Formatting.decimal(share * 100, digits: 2)) %",
          "≤ \(Formatting.decimal(Self.stateSizeTarget * 100, digits: 0)) %",
          share <= Self.stateSizeTarget ? "met" : "**not met**",
        ]
      } else {
        cells += ["", "", "", ""]
      }
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines
  }

  private var stateShare: Double? {
    guard let report = sizedTraces.first(where: { $0.name == "state-large" })?.report,
      let bytes = report.bytes, let events = report.events, let full = report.fullStateBytes
    else { return nil }
    return Double(bytes) / Double(events) / full
  }

  private var sizeTargetCount: Int { stateShare == nil ? 0 : 1 }
  private var sizeTargetMissed: Int { (stateShare ?? 0) > Self.stateSizeTarget ? 1 : 0 }

  private var memoryTable: [String] {
    var lines = [
      "| streaming pass | max RSS, 100k events | max RSS, 1M events | growth for 10× the events |",
      "|---|--:|--:|--:|",
    ]
    for scenario in [
      "trace-read", "reduce-replay", "render-perfetto", "render-inspector", "render-timeline-paged",
    ] {
      guard let small = results.first(where: { $0.row.id == "\(scenario)/100k" }),
        let large = results.first(where: { $0.row.id == "\(scenario)/1M" })
      else { continue }
      let growth = large.maximumResidentMiB / small.maximumResidentMiB - 1
      lines.append(
        "| \(scenario) | \(Formatting.decimal(small.maximumResidentMiB, digits: 1)) MiB "
          + "| \(Formatting.decimal(large.maximumResidentMiB, digits: 1)) MiB "
          + "| \(growth >= 0 ? "+" : "")\(Formatting.decimal(growth * 100, digits: 1)) % |")
    }
    return lines.count > 2 ? lines : []
  }
}
