extension String {
  /// The string cut to at most `limit` characters, ending in `…` when cut.
  package func truncated(to limit: Int) -> String {
    guard count > limit else { return self }
    return String(prefix(Swift.max(limit - 1, 0))) + "…"
  }

  /// The string on one line: each line break becomes `⏎`.
  package var singleLine: String {
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

extension String {
  /// The string on one line, cut to at most about `limit` characters at a token boundary
  /// (after a comma, before a space or an opening bracket), ending in `…` when cut.
  package func cutAtToken(to limit: Int) -> String {
    let line = singleLine
    guard line.count > limit else { return line }
    let head = line.prefix(Swift.max(limit - 1, 1))
    let boundary = head.indices.reversed().first { index in
      head.distance(from: head.startIndex, to: index) >= limit / 2
        && (head[index] == " " || head[index] == "(" || head[index] == "[")
    }
    guard let boundary else { return String(head) + "…" }
    var kept = head[..<boundary]
    if head[boundary] != " " { kept = head[...boundary] }
    return String(kept) + "…"
  }
}
