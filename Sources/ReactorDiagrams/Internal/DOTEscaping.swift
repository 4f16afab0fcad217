/// The two escaping layers between a Swift string and what Graphviz shows.
///
/// Layer one is the DOT parser, for which only `\"` is an escape; layer two is label
/// interpretation (`\n`, `\N`, entities, record fields). Every function here writes text
/// in which each backslash starts a deliberate pair, so nothing can reach a closing quote.
///
/// The DOT writers work on UTF-8 bytes: a graph of 25,000 nodes has some 250,000 quoted
/// strings, and copying bytes is several times faster than appending scalars to a `String`.
enum DOTEscaping {
  /// Appends `value` as a quoted DOT string for a name or a plain attribute value.
  ///
  /// Quotes and backslashes are escaped; tab, newline and carriage return go out as they
  /// are; characters that are not valid in XML are replaced.
  static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
    bytes.append(quote)
    var copy = value
    copy.withUTF8 { text in
      var start = 0
      for index in text.indices {
        let byte = text[index]
        guard byte < 0x20 || byte == quote || byte == backslash || byte >= 0xEF else { continue }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<index]))
        start = index + 1
        switch byte {
        case quote, backslash: bytes += [backslash, byte]
        case tab, newline, carriageReturn: bytes.append(byte)
        default: appendVisible(text, at: index, skipping: &start, to: &bytes)
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
  static func appendQuotedLabel(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(quote)
    var copy = text
    copy.withUTF8 { text in
      var start = 0
      var previous: UInt8 = 0
      for index in text.indices {
        let byte = text[index]
        defer { previous = byte }
        guard byte < 0x20 || byte >= 0xEF || labelSpecials[Int(byte)] else { continue }
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
        default: appendVisible(text, at: index, skipping: &start, to: &bytes)
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
    for scalar in text.unicodeScalars {
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

  /// The ASCII bytes that a plain label escapes.
  private static let labelSpecials: [Bool] = (0..<256).map { byte in
    "\"\\&{}|<>".utf8.contains(UInt8(byte))
  }

  /// Writes the character at `index` (a C0 control, or one starting with byte 0xEF or up).
  ///
  /// The result is valid in XML and cannot truncate a C string: C0 controls become their
  /// Control Pictures symbol (U+0007 becomes U+2407), U+FFFE and U+FFFF become U+FFFD, and
  /// anything else is left for the caller to copy. Moves `start` past the bytes it consumed.
  private static func appendVisible(
    _ text: UnsafeBufferPointer<UInt8>, at index: Int, skipping start: inout Int,
    to bytes: inout [UInt8]
  ) {
    let byte = text[index]
    if byte < 0x20 {
      // U+2400 + byte, in UTF-8: E2 90 80+byte.
      bytes += [0xE2, 0x90, 0x80 + byte]
    } else if byte == 0xEF, index + 2 < text.count, text[index + 1] == 0xBF,
      text[index + 2] == 0xBE || text[index + 2] == 0xBF
    {
      bytes += [0xEF, 0xBF, 0xBD]
      start = index + 3
    } else {
      // Another character that starts with a byte of 0xEF and up: copied with what follows.
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
    default: String(visible(scalar))
    }
  }

  /// Replaces scalars that are not valid in XML (or truncate a C string): C0 controls become
  /// their Control Pictures symbol (U+0007 becomes U+2407), U+FFFE and U+FFFF become U+FFFD.
  private static func visible(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    switch scalar.value {
    case 0x00...0x1F: Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}"
    case 0xFFFE, 0xFFFF: "\u{FFFD}"
    default: scalar
    }
  }
}
