/// Number formatting for the table, without Foundation's locale-dependent formatters.
enum Formatting {
  /// `1234567.8` → `1,234,568`.
  static func grouped(_ value: Double) -> String {
    guard value.isFinite else { return "–" }
    let rounded = Int(value.rounded())
    let digits = String(rounded.magnitude)
    var groups: [Substring] = []
    var end = digits.endIndex
    while end > digits.startIndex {
      let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
      groups.insert(digits[start..<end], at: 0)
      end = start
    }
    return (rounded < 0 ? "-" : "") + groups.joined(separator: ",")
  }

  /// `decimal(3.14159, digits: 2)` → `3.14`.
  static func decimal(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "–" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    guard digits > 0 else { return String(scaled) }
    let sign = scaled < 0 ? "-" : ""
    let magnitude = scaled.magnitude
    let whole = magnitude / UInt(scale)
    var fraction = String(magnitude % UInt(scale))
    while fraction.count < digits { fraction = "0" + fraction }
    return "\(sign)\(whole).\(fraction)"
  }

  /// Seconds with three significant decimals: `0.123`, `1.23`, `12.3`.
  static func seconds(_ value: Double) -> String {
    value < 1
      ? decimal(value, digits: 3)
      : value < 10 ? decimal(value, digits: 2) : decimal(value, digits: 1)
  }
}
