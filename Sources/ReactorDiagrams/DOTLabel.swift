/// The text of a `label`-like attribute (`label`, `xlabel`, `headlabel`, `taillabel`).
///
/// Plain text is escaped so that Graphviz shows exactly that text: quotes, backslashes,
/// escape sequences such as `\N`, entities and record-shape specials can neither change the
/// graph's structure nor be interpreted. Characters that SVG cannot hold are replaced: a tab
/// becomes a space, other C0 control characters their Control Pictures symbol (U+0007 shows
/// as U+2407), U+FFFE and U+FFFF become U+FFFD.
///
/// ```swift
/// let plain: DOTLabel = "C:\\new \"quoted\" {record}"
/// let rich: DOTLabel = .html(.bold("Idle") + .lineBreak + "count = 0")
/// ```
public enum DOTLabel: Sendable, Hashable {
  /// Literal text; a newline starts a new centered line.
  case text(String)

  /// An HTML-like label, well-formed by construction.
  case html(DOTHTMLLabel)
}

extension DOTLabel: ExpressibleByStringInterpolation {
  /// Creates a plain-text label from a string literal.
  public init(stringLiteral value: String) {
    self = .text(value)
  }
}
