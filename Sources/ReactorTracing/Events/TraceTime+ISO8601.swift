extension TraceTime {
  /// Nanoseconds since 1970-01-01T00:00:00Z of a header's clock origin.
  ///
  /// The origin reads like `2026-11-22T09:30:00.123Z`; the result is `nil` for text that is
  /// not a UTC time of the form `YYYY-MM-DDTHH:MM:SS[.fraction]Z` between the years 1970 and
  /// 2262. No Foundation formatter is used. Summaries and exports use it to put a trace's
  /// times on the wall clock.
  /// - Parameter text: The clock origin's text.
  /// - Returns: The nanoseconds, or `nil`.
  public static func unixNanoseconds(iso8601 text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for index in range {
        let byte = bytes[index]
        guard byte >= 48, byte <= 57 else { return nil }
        value = value * 10 + Int64(byte - 48)
      }
      return value
    }
    guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1970...2262).contains(year), (1...12).contains(month), (1...31).contains(day),
      hour < 24, minute < 60, second < 61
    else { return nil }
    var fraction: Int64 = 0
    let end = bytes.count - 1
    if end > 19 {
      guard bytes[19] == UInt8(ascii: "."), end - 20 >= 1, end - 20 <= 9,
        let digits = number(20..<end)
      else { return nil }
      fraction = digits
      for _ in 0..<(9 - (end - 20)) { fraction *= 10 }
    } else if end != 19 {
      return nil
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = month <= 2 ? year - 1 : year
    let era = y / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return nil }
    let (total, overflowAgain) = scaled.addingReportingOverflow(fraction)
    return overflowAgain ? nil : total
  }
}
