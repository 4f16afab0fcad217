import ReactorStateMachines

/// How wide text is drawn, from font metrics: for each ASCII character the wider of
/// Helvetica (what Graphviz's ``TextMeasurement/estimated`` uses and what Macs draw) and
/// DejaVu Sans (what Pango and most Linux viewers draw for Helvetica), a little wider still
/// for safety.
///
/// Used to wrap text into boxes whose size is fixed before Graphviz sees them, so that no
/// text leaves its box whichever of the two fonts draws it.
enum TextWidth {
  /// How much wider than the table a line may come out.
  static let safety = 1.03

  /// The wider of Helvetica's and DejaVu Sans's advance widths for ASCII 32–126, in
  /// thousandths of an em (their metrics files).
  private static let ascii: [UInt16] = [
    318, 402, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,  // ␠–/
    636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 556,  // 0–?
    1015, 684, 686, 722, 770, 667, 611, 778, 752, 295, 500, 667, 557, 863, 748, 787,  // @–O
    667, 787, 722, 667, 611, 732, 684, 989, 685, 667, 685, 390, 337, 390, 838, 556,  // P–_
    500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,  // `–o
    635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,  // p–~
  ]

  /// The width of `text` at `fontSize` points, in points.
  static func points(_ text: some StringProtocol, fontSize: Double) -> Double {
    var thousandths = 0
    for scalar in text.unicodeScalars {
      if DOTEscaping.isHidden(scalar.value) {
        // Shown as its code, `\u{202E}` (see DOTEscaping).
        let code = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        for character in code.unicodeScalars {
          thousandths += Int(ascii[Int(character.value) - 32])
        }
        continue
      }
      switch scalar.value {
      case 32...126: thousandths += Int(ascii[Int(scalar.value) - 32])
      case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60,
        0x1F300...0x1FAFF:
        thousandths += 1100  // wide: CJK, Hangul, emoji, in whatever font has them
      case 0x0300...0x036F: break  // combining marks
      case 0x2190...0x21FF: thousandths += 838  // arrows
      default: thousandths += 780
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
      // A switch, not `" ,([{→←".contains(character)`: that walks the string's characters
      // for every character of every label.
      switch character {
      case " ", ",", "(", "[", "{", "→", "←":
        tokens.append(current)
        current = ""
      default:
        break
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
