/// The two escaping layers between a Swift string and what Graphviz shows.
///
/// Layer one is the DOT parser, for which only `\"` is an escape; layer two is label
/// interpretation (`\n`, `\N`, entities, record fields). Every function here writes text
/// in which each backslash starts a deliberate pair, so nothing can reach a closing quote.
///
/// Every writer here also escapes `&` (so Graphviz never decodes a character reference such
/// as `&#1;` or `&lt;` that came from the text) and shows invisible or misleading characters
/// visibly: C0 controls as their Control Pictures symbol (U+0007 as U+2407); DEL, C1
/// controls, noncharacters, bidirectional overrides and isolates, zero-width and other
/// invisible characters as `\u{202E}` (hexadecimal, as Swift writes them).
///
/// The DOT writers work on UTF-8 bytes: a graph of 25,000 nodes has some 250,000 quoted
/// strings, and copying bytes is several times faster than appending scalars to a `String`.
enum DOTEscaping {
  /// Appends `value` as a quoted DOT string for a name or a plain attribute value.
  ///
  /// Quotes and backslashes are escaped and `&` becomes `&amp;` (Graphviz writes these values
  /// into SVG titles and tooltips, decoding character references); tab, newline and carriage
  /// return go out as they are; hidden characters are shown visibly.
  static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
    appendWholeQuoted(fitting(value, in: valueLimit, by: appendWholeQuoted), to: &bytes)
  }

  /// The most bytes a quoted value takes: Graphviz's DOT scanner reads no quoted string
  /// longer than 16,384 bytes, so a longer tooltip or name made the whole file unreadable.
  static let valueLimit = 15_000

  /// The most bytes a quoted label takes.
  ///
  /// Layout measures every character of a label, at a cost that grows faster than its
  /// length (a 5 MB label took over 30 s); a label this long is unreadable in a diagram
  /// anyway. The full text stays in tooltips and the inspector.
  static let labelLimit = 2_000

  /// The most characters of one line of a label, the last of them `…` when it is cut.
  ///
  /// A label's width follows its longest line: a 60,000-character effect name made a
  /// timeline 1.3 million points wide, whose time axis `dot` refused (an edge longer than
  /// 65,535 points). Every label that reaches Graphviz, plain or HTML-like, and the text the
  /// timeline and sequence diagrams measure their boxes by, is cut to this.
  static let lineLimit = 300

  /// `text` with every line longer than ``lineLimit`` characters cut to that many, the last
  /// one `…`; `text` itself when no line is that long.
  static func boundingLines(_ text: String) -> String {
    guard text.utf8.count > lineLimit else { return text }
    var result = ""
    var lineStart = text.startIndex
    func addLine(upTo end: String.Index) {
      let line = text[lineStart..<end]
      if line.count > lineLimit {
        result += line.prefix(lineLimit - 1)
        result += "…"
      } else {
        result += line
      }
    }
    var index = text.startIndex
    while index < text.endIndex {
      if text[index].isNewline {
        addLine(upTo: index)
        result.append(text[index])
        lineStart = text.index(after: index)
      }
      index = text.index(after: index)
    }
    addLine(upTo: text.endIndex)
    return result
  }

  /// `text`, or as much of it as escapes to at most `limit` bytes with `… (cut: N characters
  /// in all)` after it.
  private static func fitting(
    _ text: String, in limit: Int, by escape: (String, inout [UInt8]) -> Void
  ) -> String {
    // No escape writes more than 10 bytes for a byte of text (`\u{…}` for a scalar).
    guard text.utf8.count * 10 + 2 > limit else { return text }
    var scratch: [UInt8] = []
    escape(text, &scratch)
    guard scratch.count > limit else { return text }
    let room = limit - 64
    var total = 0
    var kept = text.startIndex
    for index in text.indices {
      scratch.removeAll(keepingCapacity: true)
      escape(String(text[index]), &scratch)
      total += scratch.count - 2
      if total > room { break }
      kept = text.index(after: index)
    }
    return String(text[..<kept]) + "… (cut: \(text.count) characters in all)"
  }

  private static func appendWholeQuoted(_ value: String, to bytes: inout [UInt8]) {
    bytes.append(quote)
    var copy = value
    copy.withUTF8 { text in
      var start = 0
      for index in text.indices {
        let byte = text[index]
        guard valueSpecials[Int(byte)] else { continue }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<index]))
        start = index + 1
        switch byte {
        case quote, backslash: bytes += [backslash, byte]
        case UInt8(ascii: "&"): bytes += Array("&amp;".utf8)
        case tab, newline, carriageReturn: bytes.append(byte)
        default: appendVisible(text, at: index, skipping: &start, to: &bytes, isLabel: false)
        }
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
    }
    bytes.append(quote)
  }

  /// Appends a quoted DOT string that a plain label shows as exactly `text`.
  ///
  /// Each line break (`\r\n`, `\n` or `\r`) becomes `\n`, a tab a space; quotes, backslashes,
  /// `&` and the record-shape specials `{ } | < >` are escaped.
  ///
  /// A line longer than ``lineLimit`` characters is cut with `…`, and a label that would
  /// take more than ``labelLimit`` bytes is cut, saying its length.
  static func appendQuotedLabel(_ text: String, to bytes: inout [UInt8]) {
    appendWholeQuotedLabel(
      fitting(boundingLines(text), in: labelLimit, by: appendWholeQuotedLabel), to: &bytes)
  }

  private static func appendWholeQuotedLabel(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(quote)
    var copy = text
    copy.withUTF8 { text in
      var start = 0
      var previous: UInt8 = 0
      for index in text.indices {
        let byte = text[index]
        defer { previous = byte }
        guard labelSpecials[Int(byte)] else { continue }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<index]))
        start = index + 1
        switch byte {
        case newline where previous == carriageReturn:
          break  // `\r\n` is one line break, written for the `\r`.
        case newline, carriageReturn: bytes += [backslash, UInt8(ascii: "n")]
        case quote, backslash: bytes += [backslash, byte]
        case UInt8(ascii: "&"): bytes += Array("&amp;".utf8)
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "|"), UInt8(ascii: "<"),
          UInt8(ascii: ">"):
          // Record-shape specials; outside records `\{` shows as `{` too.
          bytes += [backslash, byte]
        case tab: bytes.append(UInt8(ascii: " "))
        default: appendVisible(text, at: index, skipping: &start, to: &bytes, isLabel: true)
        }
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
    }
    bytes.append(quote)
  }

  /// XML element text for an HTML-like label that shows as exactly `text`.
  static func htmlText(_ text: String) -> String {
    var result = ""
    var previousWasReturn = false
    for scalar in boundingLines(text).unicodeScalars {
      defer { previousWasReturn = scalar == "\r" }
      switch scalar {
      case "\n" where previousWasReturn: continue
      case "\n", "\r": result += "<BR/>"
      case "\\": result += "\\\\"
      case "\t": result += " "
      default: result += xmlEscaped(scalar)
      }
    }
    return result
  }

  /// An XML attribute value for an HTML-like label.
  static func htmlAttribute(_ value: String) -> String {
    var result = ""
    for scalar in value.unicodeScalars {
      result += xmlEscaped(scalar)
    }
    return result
  }

  private static let quote = UInt8(ascii: "\"")
  private static let backslash = UInt8(ascii: "\\")
  private static let tab = UInt8(ascii: "\t")
  private static let newline = UInt8(ascii: "\n")
  private static let carriageReturn = UInt8(ascii: "\r")

  /// The bytes that may start a character a quoted value changes: controls, `"`, `\`, `&`,
  /// and the lead bytes of hidden characters.
  private static let valueSpecials: [Bool] = (0..<256).map { byte in
    byte < 0x20 || "\"\\&".utf8.contains(UInt8(byte)) || hiddenLeadBytes.contains(UInt8(byte))
  }

  /// The bytes that may start a character a plain label changes: the above and the
  /// record-shape specials.
  private static let labelSpecials: [Bool] = (0..<256).map { byte in
    valueSpecials[byte] || "{}|<>".utf8.contains(UInt8(byte))
  }

  /// The UTF-8 lead bytes of every character ``isHidden(_:)`` is true for.
  private static let hiddenLeadBytes = Set<UInt8>([0x7F, 0xC2, 0xD8, 0xE1, 0xE2] + (0xEF...0xF4))

  /// Whether a character is invisible or misleading in a label: DEL and C1 controls, the soft
  /// hyphen, Arabic letter mark, Mongolian vowel separator, zero-width spaces and joiners,
  /// directional marks, line and paragraph separators, bidirectional embeddings, overrides
  /// and isolates, invisible operators, the byte order mark, and noncharacters.
  static func isHidden(_ value: UInt32) -> Bool {
    switch value {
    case 0x7F...0x9F, 0xAD, 0x061C, 0x180E, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064,
      0x2066...0x206F, 0xFEFF, 0xFDD0...0xFDEF:
      true
    default:
      value & 0xFFFE == 0xFFFE  // U+FFFE and U+FFFF in every plane
    }
  }

  /// `\u{202E}`: how a hidden character is shown.
  private static func visibleName(_ value: UInt32) -> String {
    "\\u{" + String(value, radix: 16, uppercase: true) + "}"
  }

  /// Writes the character at `index` (a C0 control, or one whose lead byte a hidden
  /// character may have).
  ///
  /// C0 controls become their Control Pictures symbol (U+0007 becomes U+2407) and hidden
  /// characters `\\u{…}` (its backslash doubled for both layers); anything else is left for
  /// the caller to copy. Moves `start` past the bytes it consumed.
  private static func appendVisible(
    _ text: UnsafeBufferPointer<UInt8>, at index: Int, skipping start: inout Int,
    to bytes: inout [UInt8], isLabel: Bool
  ) {
    let byte = text[index]
    if byte < 0x20 {
      // U+2400 + byte, in UTF-8: E2 90 80+byte.
      bytes += [0xE2, 0x90, 0x80 + byte]
      return
    }
    // The text is valid UTF-8 (it comes from a `String`): decode the scalar at `index`.
    let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
    var value = length == 1 ? UInt32(byte) : UInt32(byte) & (0xFF >> (length + 1))
    for offset in 1..<length where index + offset < text.count {
      value = value << 6 | UInt32(text[index + offset] & 0x3F)
    }
    if isHidden(value) {
      bytes += [backslash]
      for byte in visibleName(value).utf8 {
        // In a label, braces are record-shape specials.
        if isLabel, byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") {
          bytes.append(backslash)
        }
        bytes.append(byte)
      }
      start = index + length
    } else {
      start = index
    }
  }

  private static func xmlEscaped(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "&": "&amp;"
    case "<": "&lt;"
    case ">": "&gt;"
    case "\"": "&quot;"
    case "'": "&#39;"
    default: visible(scalar)
    }
  }

  /// Shows scalars that are not valid in XML or are hidden: C0 controls as their Control
  /// Pictures symbol (U+0007 becomes U+2407), hidden characters as `\\u{…}` (the backslash
  /// doubled, as HTML-like label text doubles every backslash).
  private static func visible(_ scalar: Unicode.Scalar) -> String {
    switch scalar.value {
    case 0x00...0x1F: String(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
    case let value where isHidden(value): "\\" + visibleName(value)
    default: String(scalar)
    }
  }
}
