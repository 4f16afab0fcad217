/// How Graphviz measures labels while it lays a graph out.
///
/// Graphviz sizes nodes to fit their labels and places labels by their measured size. With
/// ``shaped`` (the default) Pango shapes every label with the installed fonts, which is
/// exact and, for graphs of thousands of labels, the largest part of a render. With
/// ``estimated`` Graphviz uses its built-in character widths for Times, Helvetica/Arial and
/// Courier instead, several times faster; that suits diagrams whose nodes have a fixed size
/// and a pinned position, such as ``TimelineDiagram``, where measuring changes nothing but
/// where a label's baseline falls (by less than a point).
///
/// ```swift
/// let renderer = GraphvizRenderer(textMeasurement: .estimated)
/// let svg = try renderer.render(timeline.dotGraph(), engine: .nop, format: .svg)
/// ```
public enum TextMeasurement: Sendable, Hashable {
  /// Pango shapes each label with the installed fonts.
  case shaped

  /// Graphviz estimates each label's size from built-in font metrics.
  ///
  /// Used for SVG and Graphviz's text formats (`dot`, `canon`, `xdot`, `plain`, `json`).
  /// Other formats, such as PNG and PDF, are drawn with Pango and measure with it too. Where
  /// Graphviz's plugins cannot be loaded one by one (they are looked for in the `graphviz`
  /// directory next to libgvc), text is shaped.
  case estimated
}
