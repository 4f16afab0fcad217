/// An HTML-like Graphviz label built from escaped text, always well-formed XML.
///
/// Text is escaped on the way in (`& < > "` become entities, newlines become `<BR/>`,
/// backslashes are doubled so `\N` is not substituted, control characters are replaced as
/// for ``DOTLabel/text(_:)``), and
/// the only markup comes from the builders below.
///
/// ```swift
/// let label: DOTHTMLLabel = .bold("Loading") + .lineBreak
///   + .font("attempt <2>", color: "gray40", pointSize: 10)
/// ```
public struct DOTHTMLLabel: Sendable, Hashable {
  /// The XML markup without the enclosing `<` and `>` of the DOT HTML string.
  let markup: String

  /// Creates a label that shows `text` exactly.
  ///
  /// - Parameter text: Any text; each newline (`\n`, `\r\n` or `\r`) starts a new line.
  public init(_ text: String) {
    self.markup = DOTEscaping.htmlText(text)
  }

  private init(markup: String) {
    self.markup = markup
  }

  /// A line break (`<BR/>`).
  public static let lineBreak = DOTHTMLLabel(markup: "<BR/>")

  /// Shows `content` in bold.
  ///
  /// - Parameter content: The label to emphasize.
  /// - Returns: `content` wrapped in `<B>`.
  public static func bold(_ content: DOTHTMLLabel) -> DOTHTMLLabel {
    // Graphviz refuses an empty element.
    content.markup.isEmpty ? content : DOTHTMLLabel(markup: "<B>" + content.markup + "</B>")
  }

  /// Shows `content` in italics.
  ///
  /// - Parameter content: The label to emphasize.
  /// - Returns: `content` wrapped in `<I>`.
  public static func italic(_ content: DOTHTMLLabel) -> DOTHTMLLabel {
    content.markup.isEmpty ? content : DOTHTMLLabel(markup: "<I>" + content.markup + "</I>")
  }

  /// Shows `content` in another color, size or typeface.
  ///
  /// - Parameters:
  ///   - content: The label to style.
  ///   - color: A Graphviz color such as `red` or `#336699`.
  ///   - pointSize: The font size in points.
  ///   - face: A font family name.
  /// - Returns: `content` wrapped in `<FONT>` with the given attributes, or `content` itself
  ///   when all of them are `nil`.
  public static func font(
    _ content: DOTHTMLLabel, color: String? = nil, pointSize: Double? = nil,
    face: String? = nil
  ) -> DOTHTMLLabel {
    var attributes = ""
    if let color {
      attributes += " COLOR=\"" + DOTEscaping.htmlAttribute(color) + "\""
    }
    if let pointSize {
      attributes += " POINT-SIZE=\"" + DOTEscaping.htmlAttribute("\(pointSize)") + "\""
    }
    if let face {
      attributes += " FACE=\"" + DOTEscaping.htmlAttribute(face) + "\""
    }
    guard !attributes.isEmpty, !content.markup.isEmpty else { return content }
    return DOTHTMLLabel(markup: "<FONT" + attributes + ">" + content.markup + "</FONT>")
  }

  /// Concatenates two labels.
  ///
  /// - Parameters:
  ///   - lhs: The leading part.
  ///   - rhs: The trailing part.
  /// - Returns: A label showing `lhs` followed by `rhs`.
  public static func + (lhs: DOTHTMLLabel, rhs: DOTHTMLLabel) -> DOTHTMLLabel {
    DOTHTMLLabel(markup: lhs.markup + rhs.markup)
  }
}

extension DOTHTMLLabel: ExpressibleByStringInterpolation {
  /// Creates a label that shows the literal text exactly.
  public init(stringLiteral value: String) {
    self.init(value)
  }
}
