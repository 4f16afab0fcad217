/// Lays out and renders DOT text in-process with Graphviz's libgvc.
///
/// libgvc is not thread-safe, so every call into it, from every renderer, goes through one
/// process-wide lock and one shared Graphviz context (two with
/// ``TextMeasurement/estimated``: one without Pango). Calling ``render(dot:engine:format:)``
/// from many tasks at once is safe; the renders run one after another. A layout can be
/// neither cancelled nor time-limited, and a call blocks its thread until it finishes.
///
/// ```swift
/// let renderer = GraphvizRenderer()
/// let svg = try renderer.render(dot: "digraph { \"a\" -> \"b\" }", format: .svg)
/// try AtomicFile.write(svg, to: "trace.svg")
/// ```
public struct GraphvizRenderer: Sendable {
  /// How labels are measured while laying out; ``TextMeasurement/shaped`` unless set.
  public var textMeasurement: TextMeasurement

  /// Creates a renderer; all renderers share the process-wide Graphviz contexts.
  ///
  /// - Parameter textMeasurement: How labels are measured while laying out.
  public init(textMeasurement: TextMeasurement = .shaped) {
    self.textMeasurement = textMeasurement
  }

  /// Lays out DOT text and renders it.
  ///
  /// - Parameters:
  ///   - dot: DOT text; only its first graph is used.
  ///   - engine: The layout engine.
  ///   - format: The output format.
  /// - Returns: The rendered bytes (UTF-8 text for text formats).
  /// - Throws: ``GraphvizError`` with Graphviz's message when the text does not parse, the
  ///   engine or format is unknown, or Graphviz reports an error while laying out or
  ///   rendering. A failure does not affect later renders.
  public func render(
    dot: String, engine: LayoutEngine = .dot, format: OutputFormat = .svg
  ) throws(GraphvizError) -> [UInt8] {
    try GraphvizRuntime.shared.render(
      dot: dot, engine: engine, format: format, textMeasurement: textMeasurement
    ).bytes
  }

  /// Lays out a graph model and renders it, returning Graphviz's warnings with the bytes.
  ///
  /// Graphviz warns, for example, when a PNG would be wider than 32,767 pixels and it scales
  /// the picture down instead; each warning comes back as one line, in our words where we
  /// know it, and nothing is printed.
  ///
  /// - Parameters:
  ///   - graph: The graph; its ``DOTGraph/serialized()`` text is rendered.
  ///   - engine: The layout engine.
  ///   - format: The output format.
  /// - Returns: The rendered bytes and the warnings.
  /// - Throws: ``GraphvizError`` with Graphviz's message.
  public func renderReportingWarnings(
    _ graph: DOTGraph, engine: LayoutEngine = .dot, format: OutputFormat = .svg
  ) throws(GraphvizError) -> GraphvizOutput {
    try GraphvizRuntime.shared.render(
      dot: graph.serialized(), engine: engine, format: format,
      textMeasurement: textMeasurement)
  }

  /// Lays out a graph model and renders it.
  ///
  /// - Parameters:
  ///   - graph: The graph; its ``DOTGraph/serialized()`` text is rendered.
  ///   - engine: The layout engine.
  ///   - format: The output format.
  /// - Returns: The rendered bytes (UTF-8 text for text formats).
  /// - Throws: ``GraphvizError`` with Graphviz's message.
  public func render(
    _ graph: DOTGraph, engine: LayoutEngine = .dot, format: OutputFormat = .svg
  ) throws(GraphvizError) -> [UInt8] {
    try render(dot: graph.serialized(), engine: engine, format: format)
  }
}
