/// The one conversion between times as traces and scripts write them and `Duration`, exact
/// and range-checked.
///
/// A trace's `t` is whole nanoseconds from 0 to `Int64.max`; a script's `t` (and the
/// `script.events` metadata's) is milliseconds, whole or with a fraction. Every reader and
/// writer of those numbers goes through here, so that no time is rounded through a `Double`
/// on its way to nanoseconds and no time outside the range wraps or traps:
///
/// ```swift
/// TraceTime.duration(milliseconds: .int(1_500))       // 1.5 s
/// TraceTime.duration(milliseconds: .double(1e300))    // nil: beyond the largest time
/// TraceTime.nanoseconds(.seconds(2))                  // 2_000_000_000
/// TraceTime.millisecondsText(.nanoseconds(1_500_001)) // "1.500001"
/// ```
public enum TraceTime {
  /// The largest time a trace holds: `Int64.max` nanoseconds (about 292 years).
  public static let latest = Duration.nanoseconds(Int64.max)

  /// The largest whole number of milliseconds a script's `t` may hold.
  public static let latestMilliseconds = Int64.max / 1_000_000

  /// The whole nanoseconds of `duration` (a fraction of a nanosecond dropped), or `nil`
  /// when it is negative or later than ``latest``.
  public static func nanoseconds(_ duration: Duration) -> Int64? {
    // One division of the attoseconds: `components` divided them twice, the writer's most
    // costly arithmetic on a small line.
    let attoseconds = duration.attoseconds
    guard attoseconds >= 0 else { return nil }
    return Int64(exactly: attoseconds / 1_000_000_000)
  }

  /// The time `milliseconds` stands for, in whole nanoseconds (a fraction rounded to the
  /// nearest); `nil` unless it is a number from 0 to ``latest``.
  ///
  /// An integer is converted exactly; a number with a fraction has its whole milliseconds
  /// converted exactly and only the fraction rounded.
  public static func duration(milliseconds: JSONValue) -> Duration? {
    switch milliseconds {
    case .int(let whole): return duration(wholeMilliseconds: whole, fraction: 0)
    case .uint(let whole):
      return Int64(exactly: whole).flatMap { duration(wholeMilliseconds: $0, fraction: 0) }
    case .double(let value):
      guard value.isFinite, value >= 0 else { return nil }
      let whole = value.rounded(.down)
      guard let wholeMilliseconds = Int64(exactly: whole) else { return nil }
      // `value - whole` is exact, and below 1: its nanoseconds fit easily.
      let fraction = Int64(((value - whole) * 1_000_000).rounded())
      return duration(wholeMilliseconds: wholeMilliseconds, fraction: fraction)
    default: return nil
    }
  }

  private static func duration(wholeMilliseconds: Int64, fraction: Int64) -> Duration? {
    guard wholeMilliseconds >= 0 else { return nil }
    let (nanoseconds, overflow) = wholeMilliseconds.multipliedReportingOverflow(by: 1_000_000)
    guard !overflow else { return nil }
    let (total, carry) = nanoseconds.addingReportingOverflow(fraction)
    return carry ? nil : .nanoseconds(total)
  }

  /// Milliseconds in plain decimals without trailing zeros (`1500`, `1.5`, `0.000001`), for
  /// a time from 0 to ``latest``; `nil` outside it.
  public static func millisecondsText(_ duration: Duration) -> String? {
    guard let nanoseconds = nanoseconds(duration) else { return nil }
    let whole = nanoseconds / 1_000_000
    let rest = nanoseconds % 1_000_000
    guard rest != 0 else { return String(whole) }
    var fraction = String(rest)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(whole).\(fraction)"
  }

  /// What a script or metadata reader says when `t` is out of range.
  public static var millisecondsRange: String {
    "a number of milliseconds from 0 to \(latestMilliseconds)"
  }
}
