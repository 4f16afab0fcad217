import ReactorTracing

/// A script's `t`: milliseconds, read and written only through ``TraceTime``, the one
/// checked conversion (no `Double` on the way to nanoseconds, no trap on a huge or
/// non-finite value).
enum ScriptTime {
  /// The time `value` stands for, or why it stands for none.
  static func duration(_ value: JSONValue) -> Result<Duration, Problem> {
    switch value {
    case .int, .uint, .double:
      guard let time = TraceTime.duration(milliseconds: value) else {
        return .failure(.outOfRange)
      }
      return .success(time)
    default: return .failure(.notANumber)
    }
  }

  /// `time` as a script writes it: whole milliseconds as an integer, others with their
  /// fraction (`1.5`); `null` for a time beyond ``TraceTime/latest``.
  static func milliseconds(_ time: Duration) -> JSONValue {
    guard let text = TraceTime.millisecondsText(time), let value = try? JSONValue(parsing: text)
    else { return .null }
    return value
  }

  /// What is wrong with a `t`.
  enum Problem: Error {
    case notANumber
    case outOfRange
  }
}
