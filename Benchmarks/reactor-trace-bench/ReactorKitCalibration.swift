/// ReactorKit's untraced throughput on the machine running the benchmark, estimated from our
/// own untraced row of the same scenario in the same run (issue 44).
///
/// The fixed figures of ``RuntimeScenario/reactorKitThroughput`` are one machine's
/// (``fixedFiguresMachine``); machines of the project's kind differ in speed by up to 3×, and
/// ReactorKit and our runtime do not slow down alike (on 2026-12-06's Intel machine ReactorKit
/// ran at 0.56–0.69× its AMD speed, our runtime at 0.35–0.57×). Measured side by side on both
/// machines, ReactorKit's untraced throughput was a steady share of ours: 2.84–2.99 % for
/// state-large, 0.96–1.39 % for counter-sync. So this run's untraced row times that share is
/// ReactorKit's range here, and a row's ratio to it holds on the machine that ran it.
///
/// ```swift
/// let calibration = ReactorKitCalibration(.counterSync)!
/// calibration.ratio(of: 1_000_000, ourUntraced: 10_000_000)  // 7.19...10.42
/// ```
struct ReactorKitCalibration: Equatable, Sendable {
  /// The machine and day the fixed ReactorKit figures were measured on.
  static let fixedFiguresMachine = "AMD 2026-11-25"

  /// ReactorKit's untraced throughput as a share of ours for the same scenario: the lowest
  /// and the highest measured side by side.
  let share: ClosedRange<Double>

  /// A calibration of this share.
  init(share: ClosedRange<Double>) {
    self.share = share
  }

  /// The calibration measured for `scenario`, or `nil` for a scenario measured on one machine
  /// only (counter-concat, fanout, stub).
  init?(_ scenario: RuntimeScenario) {
    switch scenario {
    case .stateLarge: self.init(share: 0.0284...0.0299)
    case .counterSync: self.init(share: 0.0096...0.0139)
    case .counterConcat, .fanout, .stub: return nil
    }
  }

  /// ReactorKit's estimated untraced throughput, given ours for the same scenario.
  /// - Parameter ourUntraced: Our untraced throughput in this run, in units per second.
  /// - Returns: The lowest and highest estimate, or `nil` when `ourUntraced` is not a
  ///   positive finite number.
  func reactorKit(ourUntraced: Double) -> ClosedRange<Double>? {
    guard ourUntraced.isFinite, ourUntraced > 0 else { return nil }
    return ourUntraced * share.lowerBound...ourUntraced * share.upperBound
  }

  /// `throughput` as a multiple of ReactorKit's estimated throughput.
  /// - Parameters:
  ///   - throughput: A row's throughput, in units per second.
  ///   - ourUntraced: Our untraced throughput for the same scenario in the same run.
  /// - Returns: The lowest ratio (against ReactorKit's highest estimate) and the highest, or
  ///   `nil` when either figure is not a positive finite number.
  func ratio(of throughput: Double, ourUntraced: Double) -> ClosedRange<Double>? {
    reactorKit(ourUntraced: ourUntraced).flatMap { Self.ratio(of: throughput, to: $0) }
  }

  /// `throughput` as a multiple of each end of `reactorKit`, ReactorKit's estimated range.
  /// - Returns: The lowest ratio and the highest, or `nil` when `throughput` or the range's
  ///   lower end is not a positive finite number.
  static func ratio(
    of throughput: Double, to reactorKit: ClosedRange<Double>
  ) -> ClosedRange<Double>? {
    guard throughput.isFinite, throughput > 0, reactorKit.lowerBound.isFinite,
      reactorKit.lowerBound > 0
    else { return nil }
    return throughput / reactorKit.upperBound...throughput / reactorKit.lowerBound
  }

  /// Whether `throughput` is at least `multiple` times ReactorKit whatever its speed within
  /// `reactorKit`, its estimated range: judged against the range's highest end.
  static func meets(
    _ multiple: Double, throughput: Double, reactorKit: ClosedRange<Double>
  ) -> Bool {
    throughput >= multiple * reactorKit.upperBound
  }

  /// The share as the table's note states it: `0.96–1.39 %`.
  var shareText: String {
    "\(Formatting.decimal(share.lowerBound * 100, digits: 2))–"
      + "\(Formatting.decimal(share.upperBound * 100, digits: 2)) %"
  }
}
