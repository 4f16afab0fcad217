/// The value of a DOT attribute.
///
/// A string literal is a plain ``string(_:)`` value, suitable for colors, shapes, numbers
/// and other settings. Text that the reader sees belongs in ``label(_:)``.
///
/// ```swift
/// var attributes: [String: DOTValue] = ["shape": "box", "penwidth": "2"]
/// attributes["xlabel"] = .label("after \\ before")
/// ```
public enum DOTValue: Sendable, Hashable {
  /// A setting such as `box`, `LR` or `#ff8800`, written as a quoted DOT string.
  ///
  /// Quotes are escaped, backslashes doubled (Graphviz reads `\\` back as one backslash in
  /// `URL`, `tooltip` and `id`) and control characters other than tab, newline and carriage
  /// return replaced, so the value can never change the graph's structure. Graphviz does not
  /// XML-escape every setting in SVG (`URL` and `fontname` go out verbatim), so keep these
  /// values to what the attribute expects.
  case string(String)

  /// Label text for `label`, `xlabel`, `headlabel` or `taillabel`, escaped so it shows as is.
  case label(DOTLabel)
}

extension DOTValue: ExpressibleByStringInterpolation {
  /// Creates a ``string(_:)`` value from a string literal.
  public init(stringLiteral value: String) {
    self = .string(value)
  }
}
