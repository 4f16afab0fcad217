/// The runs of one row and their medians.
struct RowResult: Sendable {
  /// One run.
  struct Run: Sendable {
    /// The timed seconds.
    var seconds: Double
    /// The units processed.
    var units: Int
    /// The process's maximum resident set size, in bytes.
    var maximumResidentBytes: Int
    /// What the child reported, for child rows.
    var report: ChildReport?
    /// Whether the peak is only known to be at most ``maximumResidentBytes``.
    var isMemoryUpperBound = false
    /// The output's size divided by the input's, for tool rows given an input.
    var outputRatio: Double?
  }

  /// The row.
  var row: BenchRow
  /// Its runs, in order.
  var runs: [Run]
  /// ReactorKit's untraced throughput on this machine, estimated from the fastest run of this
  /// run's untraced row of the same scenario (``ReactorKitCalibration``), lowest and highest;
  /// `nil` for a scenario without a calibration or a run without that row.
  var calibratedReactorKit: ClosedRange<Double>?

  /// The median of the runs' seconds.
  var seconds: Double { Self.median(runs.map(\.seconds)) }

  /// The median of the runs' throughputs, in units per second.
  var throughput: Double { Self.median(throughputs) }

  /// The highest of the runs' throughputs, in units per second: what a calibration against
  /// ReactorKit starts from, so that a slow run of our untraced row never makes ReactorKit's
  /// estimate, and so a ratio to it, look better than the machine's best.
  var fastestThroughput: Double { throughputs.max() ?? .nan }

  /// Each run's throughput, in units per second.
  private var throughputs: [Double] { runs.map { Double($0.units) / $0.seconds } }

  /// The median of the runs' bytes per second, for rows that report bytes.
  var bytesPerSecond: Double? {
    let rates = runs.compactMap { run in run.report?.bytes.map { Double($0) / run.seconds } }
    return rates.count == runs.count && !rates.isEmpty ? Self.median(rates) : nil
  }

  /// The largest maximum resident set size of the runs, in MiB.
  var maximumResidentMiB: Double {
    Double(runs.map(\.maximumResidentBytes).max() ?? 0) / 1_048_576
  }

  /// The largest output-to-input size ratio of the runs, for tool rows given an input.
  var outputRatio: Double? {
    let ratios = runs.compactMap(\.outputRatio)
    return ratios.count == runs.count ? ratios.max() : nil
  }

  /// Whether the peak memory is only an upper bound.
  var isMemoryUpperBound: Bool { runs.contains(where: \.isMemoryUpperBound) }

  /// The medians of the runs' latency percentiles, for the live latency rows.
  var latencyMilliseconds: (p50: Double, p95: Double, p99: Double)? {
    let latencies = runs.compactMap(\.report?.latencyMilliseconds)
    guard latencies.count == runs.count, !latencies.isEmpty else { return nil }
    return (
      Self.median(latencies.map(\.p50)), Self.median(latencies.map(\.p95)),
      Self.median(latencies.map(\.p99))
    )
  }

  /// The last run's report.
  var report: ChildReport? { runs.last?.report }

  /// The targets this result misses.
  var unmetTargets: [BenchTarget] { row.targets.filter { !$0.isMet(by: self) } }

  /// The middle value, or the mean of the two middle ones.
  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
