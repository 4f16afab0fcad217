import ReactorTracing

/// A script's `t` as written: milliseconds, through ``TraceTime``, the one checked
/// conversion (no `Double` on the way to nanoseconds, no trap on a huge or non-finite value).
enum ScriptTime {
  /// `time` as a script writes it: whole milliseconds as an integer, others with their
  /// fraction (`1.5`); `null` for a time beyond ``TraceTime/latest``.
  static func milliseconds(_ time: Duration) -> JSONValue {
    guard let text = TraceTime.millisecondsText(time), let value = try? JSONValue(parsing: text)
    else { return .null }
    return value
  }
}
