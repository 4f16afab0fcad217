extension String {
  /// The string cut to at most `limit` characters, ending in `…` when cut.
  func truncated(to limit: Int) -> String {
    guard count > limit else { return self }
    return String(prefix(Swift.max(limit - 1, 0))) + "…"
  }

  /// The string on one line: each line break becomes `⏎`.
  var singleLine: String {
    var result = ""
    for scalar in unicodeScalars {
      if scalar == "\n" || scalar == "\r" {
        result += "⏎"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
