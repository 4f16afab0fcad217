/// The two escaping layers between a Swift string and what Graphviz shows.
///
/// Layer one is the DOT parser, for which only `\"` is an escape; layer two is label
/// interpretation (`\n`, `\N`, entities, record fields). Every function here returns text
/// in which each backslash starts a deliberate pair, so nothing can reach a closing quote.
enum DOTEscaping {
  /// A quoted DOT string for a name or a plain attribute value.
  static func quoted(_ value: String) -> String {
    var result = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
      default: result.unicodeScalars.append(visible(scalar))
      }
    }
    return result + "\""
  }

  /// A quoted DOT string that a plain label shows as exactly `text`.
  static func quotedLabel(_ text: String) -> String {
    var result = "\""
    for (scalar, breaksLine) in lines(text) {
      if breaksLine {
        result += "\\n"
        continue
      }
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "&": result += "&amp;"
      case "{", "}", "|", "<", ">":
        // Record-shape specials; outside records `\{` shows as `{` too.
        result += "\\"
        result.unicodeScalars.append(scalar)
      case "\t": result += " "
      default: result.unicodeScalars.append(visible(scalar))
      }
    }
    return result + "\""
  }

  /// XML element text for an HTML-like label that shows as exactly `text`.
  static func htmlText(_ text: String) -> String {
    var result = ""
    for (scalar, breaksLine) in lines(text) {
      if breaksLine {
        result += "<BR/>"
        continue
      }
      switch scalar {
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

  /// The scalars of `text`, with each line break (`\r\n`, `\n` or `\r`) as one marker.
  private static func lines(_ text: String) -> [(scalar: Unicode.Scalar, breaksLine: Bool)] {
    var result: [(scalar: Unicode.Scalar, breaksLine: Bool)] = []
    var previousWasReturn = false
    for scalar in text.unicodeScalars {
      defer { previousWasReturn = scalar == "\r" }
      if scalar == "\n" && previousWasReturn { continue }
      result.append((scalar, scalar == "\n" || scalar == "\r"))
    }
    return result
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
