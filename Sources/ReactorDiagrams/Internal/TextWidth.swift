/// How wide text is drawn in Helvetica, from the font's own metrics: the widths Graphviz
/// uses for ``TextMeasurement/estimated``, a little wider for safety, since PNG and PDF are
/// drawn with whatever sans-serif font Pango finds (DejaVu Sans is up to a tenth wider).
///
/// Used to wrap text into boxes whose size is fixed before Graphviz sees them, so that no
/// text leaves its box.
enum TextWidth {
  /// How much wider than Helvetica a line may come out.
  static let safety = 1.12

  /// Helvetica's advance widths for ASCII 32–126, in thousandths of an em (its AFM file).
  private static let ascii: [UInt16] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,  // ␠–/
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,  // 0–?
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,  // @–O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,  // P–_
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,  // `–o
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,  // p–~
  ]

  /// The width of `text` at `fontSize` points, in points.
  static func points(_ text: some StringProtocol, fontSize: Double) -> Double {
    var thousandths = 0
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 32...126: thousandths += Int(ascii[Int(scalar.value) - 32])
      case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60,
        0x1F300...0x1FAFF:
        thousandths += 1000  // wide: CJK, Hangul, emoji
      case 0x0300...0x036F: break  // combining marks
      default: thousandths += 650
      }
    }
    return Double(thousandths) / 1000 * fontSize * safety
  }

  /// `text` on at most `lines` lines no wider than `width`, broken only between tokens: after
  /// a space, a comma or an opening bracket, and around `→` and `←`.
  ///
  /// A token wider than a line is cut, and when the text needs more lines the last one ends
  /// in `…`.
  static func wrapped(
    _ text: String, width: Double, fontSize: Double, lines: Int
  ) -> [String] {
    var tokens = Self.tokens(of: text.singleLine)
    var result: [String] = []
    var line = ""
    var index = 0
    func fits(_ candidate: String) -> Bool {
      points(candidate, fontSize: fontSize) <= width + 0.01
    }
    while index < tokens.count && result.count < lines {
      let token = tokens[index]
      if fits(line + token) {
        line += token
        index += 1
        continue
      }
      if line.isEmpty {
        // A token wider than a line: cut it by characters.
        var cut = ""
        for character in token {
          guard fits(cut + String(character)) else { break }
          cut.append(character)
        }
        if cut.isEmpty { cut = String(token.prefix(1)) }
        line = cut
        tokens[index] = String(token.dropFirst(cut.count))
        if tokens[index].isEmpty { index += 1 }
      }
      result.append(trimmed(line))
      line = ""
    }
    if !line.isEmpty {
      if result.count < lines { result.append(trimmed(line)) } else { index -= 1 }
    }
    if index < tokens.count, var last = result.popLast() {
      while !last.isEmpty && !fits(last + "…") { last.removeLast() }
      result.append(trimmed(last) + "…")
    }
    return result
  }

  /// The pieces between the places a line may break.
  private static func tokens(of text: String) -> [String] {
    var tokens: [String] = []
    var current = ""
    for character in text {
      if (character == "→" || character == "←") && !current.isEmpty {
        tokens.append(current)
        current = ""
      }
      current.append(character)
      if " ,([{→←".contains(character) {
        tokens.append(current)
        current = ""
      }
    }
    if !current.isEmpty { tokens.append(current) }
    return tokens
  }

  private static func trimmed(_ line: String) -> String {
    var line = Substring(line)
    while line.last == " " { line.removeLast() }
    while line.first == " " { line.removeFirst() }
    return String(line)
  }
}
