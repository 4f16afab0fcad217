/// One target a row of the table must meet.
enum BenchTarget: Equatable, Sendable {
  /// The median throughput is at least this many units per second.
  case throughput(atLeast: Double)
  /// The median throughput is at least this many times ReactorKit's untraced one: its range
  /// on this machine where the run calibrated it (``RowResult/calibratedReactorKit``, met
  /// only at the range's highest), its fixed figure otherwise.
  case timesReactorKit(atLeast: Double)
  /// The median run takes at most this many seconds.
  case seconds(atMost: Double)
  /// The largest maximum resident set size of the runs is at most this many MiB.
  case memory(atMostMiB: Double)
  /// A killed recording loses at most this many events, or `milliseconds` of them, whichever
  /// is more.
  case crashLoss(atMostEvents: Int, milliseconds: Double)
  /// The file a `reactor-trace` row writes is at most this many times the size of the one
  /// it reads.
  case outputSize(atMostTimesInput: Double)
  /// The median of the runs' 95th percentile latencies is at most this many milliseconds.
  case latency(p95AtMostMilliseconds: Double)

  /// The target as the table shows it.
  var text: String {
    switch self {
    case .throughput(let minimum): "≥ \(Formatting.grouped(minimum))/s"
    case .timesReactorKit(let multiple):
      "≥ \(Formatting.decimal(multiple, digits: multiple.rounded() == multiple ? 0 : 1))× ReactorKit"
    case .seconds(let maximum): "≤ \(Formatting.decimal(maximum, digits: 0)) s"
    case .memory(let maximum): "≤ \(Formatting.decimal(maximum, digits: 0)) MiB"
    case .crashLoss(let events, let milliseconds):
      "lost ≤ \(Formatting.grouped(Double(events))) events or "
        + "\(Formatting.decimal(milliseconds, digits: 0)) ms"
    case .outputSize(let maximum): "output ≤ \(Formatting.decimal(maximum, digits: 0))× input"
    case .latency(let maximum): "p95 ≤ \(Formatting.decimal(maximum, digits: 0)) ms"
    }
  }

  /// Whether `result` meets the target.
  func isMet(by result: RowResult) -> Bool {
    switch self {
    case .throughput(let minimum): result.throughput >= minimum
    case .timesReactorKit(let multiple):
      if let reactorKit = result.calibratedReactorKit {
        ReactorKitCalibration.meets(multiple, throughput: result.throughput, reactorKit: reactorKit)
      } else if let reactorKit = result.row.reactorKit {
        result.throughput >= multiple * reactorKit
      } else {
        false
      }
    case .seconds(let maximum): result.seconds <= maximum
    case .memory(let maximum): result.maximumResidentMiB <= maximum
    case .crashLoss(let events, let milliseconds):
      result.runs.allSatisfy { run in
        guard let lost = run.report?.lost else { return false }
        return lost <= events || (run.report?.lostMilliseconds ?? .infinity) <= milliseconds
      }
    case .outputSize(let maximum): result.outputRatio.map { $0 <= maximum } ?? false
    case .latency(let maximum): result.latencyMilliseconds.map { $0.p95 <= maximum } ?? false
    }
  }
}
