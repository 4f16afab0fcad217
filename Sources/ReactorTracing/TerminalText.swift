/// Text made safe for a terminal: the one sanitizer every line a command prints goes through.
///
/// Labels, names, outcomes and error messages come from trace and script files that anyone
/// may have written. Printed raw, a carriage return or an escape sequence (`ESC[2K`) in them
/// can erase or forge what the terminal shows, and a newline can split one error into two.
/// Here every control character (C0, DEL, C1), every bidirectional override or isolate and
/// the Unicode line and paragraph separators are shown as `\uXXXX` escapes, which read well
/// and are also valid inside a JSON string, so a JSON line passes through unchanged in
/// meaning. Text quoted into a message is cut, saying its length, so a 1 MB name does not make
/// a 1 MB line.
///
/// ```swift
/// TerminalText.line("match\r\u{1B}[2K")   // "match\\u000D\\u001B[2K"
/// TerminalText.quoted(String(repeating: "x", count: 10_000))
/// // "'xxx…xxx' (10000 characters; the first 120 shown)"
/// ```
public enum TerminalText {
  /// How many characters of a quoted text ``quoted(_:limit:)`` keeps by default.
  public static let quoteLimit = 120

  /// `text` with every character that could move the cursor, clear, recolour or reorder
  /// what a terminal shows written as an escape; nothing else changes.
  public static func line(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      if isUnsafe(scalar) {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// `text` between single quotes, made safe by ``line(_:)``, and cut after `limit`
  /// characters with its full length said.
  public static func quoted(_ text: String, limit: Int = quoteLimit) -> String {
    let count = text.count
    guard count > limit else { return "'" + line(text) + "'" }
    return "'" + line(String(text.prefix(limit))) + "…' (\(count) characters; the first "
      + "\(limit) shown)"
  }

  /// `text` cut after `limit` characters, saying how long it was: for a whole line.
  public static func cut(_ text: String, limit: Int) -> String {
    guard text.utf8.count > limit else { return text }
    let count = text.count
    guard count > limit else { return text }
    return String(text.prefix(limit)) + "… (cut: \(count) characters in all)"
  }

  /// Whether a terminal would act on `scalar` rather than show it.
  private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    case 0x2028, 0x2029: true
    default: false
    }
  }
}
