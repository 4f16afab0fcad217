/// A rendered diagram and what Graphviz warned about while making it.
public struct GraphvizOutput: Sendable, Hashable {
  /// The rendered bytes (UTF-8 text for text formats).
  public var bytes: [UInt8]

  /// Graphviz's warnings, one line each in our words where we know them (a PNG scaled down
  /// because it was too large, for example); empty for most renders.
  public var warnings: [String]

  /// Creates an output.
  ///
  /// - Parameters:
  ///   - bytes: The rendered bytes.
  ///   - warnings: One line per warning.
  public init(bytes: [UInt8], warnings: [String]) {
    self.bytes = bytes
    self.warnings = warnings
  }

  /// Graphviz's messages as one line each: a line that starts no new message (`Warning: `,
  /// `Error: `, `(null): `) continues the one before it, prefixes are dropped, and the
  /// messages we know are said in our words.
  static func warnings(from text: String) -> [String] {
    var messages: [String] = []
    for line in text.split(whereSeparator: \.isNewline) {
      let startsMessage = ["(null): ", "Warning: ", "warning: ", "Error: ", "error: "].contains {
        line.hasPrefix($0)
      }
      let trimmed = line.drop(while: \.isWhitespace)
      if startsMessage || messages.isEmpty {
        messages.append(String(line))
      } else if !trimmed.isEmpty {
        messages[messages.count - 1] += " " + trimmed
      }
    }
    return messages.compactMap { line -> String? in
      var line = Substring(line)
      for prefix in ["(null): ", "Warning: ", "warning: "] where line.hasPrefix(prefix) {
        line = line.dropFirst(prefix.count)
      }
      line = line.drop(while: \.isWhitespace)
      guard !line.isEmpty else { return nil }
      if line.contains("too large for cairo-renderer bitmaps") {
        let scale = line.split(separator: " ").compactMap { Double($0) }.first
        let percent = scale.map { " to \(Int(($0 * 100).rounded())) %" } ?? ""
        return "the picture is larger than a PNG can hold (32,767 pixels a side) and was "
          + "scaled down\(percent); draw it as SVG or in smaller pages"
      }
      return String(line)
    }
  }
}
