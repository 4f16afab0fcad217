/// Where each column of a timeline page goes along x: boxes side by side, spaced by the time
/// between their events, with long idle periods compressed to a marked gap; and round
/// ticks for the time axis.
struct TimeAxis {
  /// A compressed idle period.
  struct Gap {
    var x: Double
    var duration: Duration
  }

  /// A round time and where it falls.
  struct Tick {
    var x: Double
    var time: Duration
  }

  /// Space between two boxes, whatever the time between them.
  static let padding = 10.0
  /// The space the typical (median) time between two events gets.
  static let typicalSpacing = 30.0
  /// More time than this much space is compressed into a gap.
  static let longestSpacing = 160.0
  /// The width of a compressed gap.
  static let gapWidth = 64.0
  /// The least distance between two labelled ticks.
  static let tickDistance = 90.0
  /// The distance between ticks that the interval aims at.
  static let tickSpacing = 400.0

  /// The centre of each column.
  private(set) var centers: [Double] = []
  private(set) var gaps: [Gap] = []
  private(set) var ticks: [Tick] = []

  /// Lays out columns of the given widths at the given times.
  ///
  /// - Parameters:
  ///   - times: The time of each column's event, in order.
  ///   - widths: The width of each column's widest box, in points.
  init(times: [Duration], widths: [Double]) {
    let steps = zip(times.dropFirst(), times).map { $0 - $1 }.filter { $0 > .zero }.sorted()
    // Points per second: the median step gets the typical spacing.
    let scale = steps.isEmpty ? 0 : Self.typicalSpacing / steps[steps.count / 2].seconds
    var spacings: [Double] = []  // the time-proportional space before each column
    var x = 0.0
    for index in times.indices {
      if index > 0 {
        let step = (times[index] - times[index - 1]).seconds * scale
        x += widths[index - 1] / 2 + Self.padding + widths[index] / 2
        if step > Self.longestSpacing {
          x += Self.gapWidth
          gaps.append(
            Gap(
              x: x - widths[index] / 2 - Self.padding / 2 - Self.gapWidth / 2,
              duration: times[index] - times[index - 1]))
          spacings.append(-1)
        } else {
          x += step
          spacings.append(step)
        }
      } else {
        spacings.append(0)
      }
      centers.append(x)
    }
    guard scale > 0, let first = times.first, let last = times.last else { return }
    ticks = Self.ticks(
      times: times, widths: widths, centers: centers, spacings: spacings, gaps: gaps,
      from: first, to: last)
  }

  private static func ticks(
    times: [Duration], widths: [Double], centers: [Double], spacings: [Double],
    gaps: [Gap], from first: Duration, to last: Duration
  ) -> [Tick] {
    // About one tick per `tickSpacing` of the laid-out axis (boxes included, gaps not), at
    // a round interval: the axis is not linear in time, so finer ticks would bunch up.
    let span = (centers.last ?? 0) - (centers.first ?? 0)
    let idle = gaps.reduce(0) { $0 + $1.duration.seconds }
    let seconds = max((last - first).seconds - idle, 1e-3)
    let interval = roundInterval(atLeast: span > 0 ? seconds * tickSpacing / span : seconds)
    var result: [Tick] = []
    var tick = (first.seconds / interval).rounded(.up) * interval
    var column = 0
    while tick <= last.seconds + 1e-9 {
      while column < times.count && times[column].seconds < tick - 1e-9 { column += 1 }
      guard column < times.count else { break }
      var x: Double?
      if abs(times[column].seconds - tick) < 1e-9 {
        x = centers[column]
      } else if column > 0, spacings[column] < 0 {
        // Inside a compressed gap: go on from the first tick after it.
        tick = (times[column].seconds / interval).rounded(.up) * interval
        continue
      } else if column > 0, spacings[column] > 0 {
        let left = centers[column - 1] + widths[column - 1] / 2 + padding / 2
        let fraction =
          (tick - times[column - 1].seconds) / (times[column] - times[column - 1]).seconds
        x = left + fraction * spacings[column]
      }
      if let x, result.last.map({ x - $0.x >= tickDistance }) ?? true {
        result.append(Tick(x: x, time: .milliseconds(Int64((tick * 1000).rounded()))))
      }
      tick += interval
    }
    return result
  }

  /// The smallest of 1, 2 and 5 times a power of ten seconds that is at least `seconds`.
  private static func roundInterval(atLeast seconds: Double) -> Double {
    var power = 0.001
    while true {
      for factor in [1.0, 2.0, 5.0] where factor * power >= seconds { return factor * power }
      power *= 10
    }
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
