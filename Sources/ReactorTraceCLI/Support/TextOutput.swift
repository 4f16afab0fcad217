/// Where a command writes its report, one line at a time.
protocol TextOutput: Sendable {
  /// Writes `line` and a newline.
  func write(_ line: String)
}

/// Standard output.
struct StandardOutput: TextOutput {
  func write(_ line: String) {
    print(line)
  }
}
