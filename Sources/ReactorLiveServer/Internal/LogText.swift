/// Text from a client made safe for one log line: no line break or control character can
/// start a forged line or reach the terminal, and no line grows without bound.
enum LogText {
  /// The most characters of one client-supplied value a log line shows.
  static var maximumShown: Int { 200 }

  /// `text` with every control character (C0, DEL, C1, and the Unicode line and paragraph
  /// separators) written as `\n`, `\r`, `\t` or `\u{…}`, cut to ``maximumShown`` characters.
  static func escaped(_ text: some StringProtocol) -> String {
    var result = ""
    var count = 0
    for scalar in text.unicodeScalars {
      if count == maximumShown {
        result += "…"
        break
      }
      count += 1
      switch scalar.value {
      case 0x0A: result += "\\n"
      case 0x0D: result += "\\r"
      case 0x09: result += "\\t"
      case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029:
        result += "\\u{" + String(scalar.value, radix: 16) + "}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// A whole log line with every control character escaped (its length not cut).
  static func line(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { isControl($0) }) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        result += scalar.value == 0x0A ? "\\n" : "\\u{" + String(scalar.value, radix: 16) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029: true
    default: false
    }
  }
}
