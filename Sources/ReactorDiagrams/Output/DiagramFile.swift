import ReactorTracing

/// Writes a diagram to a file in the format asked for, atomically: a failure never leaves a
/// partial file behind.
public enum DiagramFile {
  /// Renders `graph` (unless `format` is ``DiagramFormat/dot``) and writes it to `path`.
  ///
  /// - Parameters:
  ///   - graph: The diagram.
  ///   - format: `.dot`, `.svg`, `.png` or `.pdf`; `.mermaid` is not a rendering of a DOT
  ///     graph, use ``write(mermaid:to:)``.
  ///   - engine: The layout engine; `.nop` for graphs whose positions are pinned.
  ///   - textMeasurement: How Graphviz measures labels; `.estimated` is much faster for
  ///     graphs whose nodes have a fixed size.
  ///   - path: Where to write.
  /// - Returns: Graphviz's warnings, one line each; usually none.
  /// - Throws: ``DiagramFileError``.
  @discardableResult
  public static func write(
    _ graph: DOTGraph, format: DiagramFormat, engine: LayoutEngine,
    textMeasurement: TextMeasurement = .shaped, to path: String
  ) throws(DiagramFileError) -> [String] {
    let output = try renderReportingWarnings(
      graph, format: format, engine: engine, textMeasurement: textMeasurement)
    try write(output.bytes, to: path)
    return output.warnings
  }

  /// The bytes of `graph` in `format` (rendered by Graphviz, or its DOT text for
  /// ``DiagramFormat/dot``) and Graphviz's warnings (a PNG scaled down because it was too
  /// large, for example), one line each.
  ///
  /// - Parameters:
  ///   - graph: The diagram.
  ///   - format: `.dot`, `.svg`, `.png` or `.pdf`.
  ///   - engine: The layout engine.
  ///   - textMeasurement: How Graphviz measures labels.
  /// - Returns: The file's contents and the warnings.
  /// - Throws: ``DiagramFileError/renderingFailed(_:)`` or
  ///   ``DiagramFileError/unsupportedFormat(_:reason:)``.
  public static func renderReportingWarnings(
    _ graph: DOTGraph, format: DiagramFormat, engine: LayoutEngine,
    textMeasurement: TextMeasurement = .shaped
  ) throws(DiagramFileError) -> GraphvizOutput {
    if let graphvizFormat = format.graphvizFormat {
      do {
        return try GraphvizRenderer(textMeasurement: textMeasurement)
          .renderReportingWarnings(graph, engine: engine, format: graphvizFormat)
      } catch {
        throw .renderingFailed(error.description)
      }
    } else if format == .dot {
      return GraphvizOutput(bytes: Array(graph.serialized().utf8), warnings: [])
    } else {
      throw .unsupportedFormat(format, reason: "only transition graphs can be written as Mermaid")
    }
  }

  /// Writes Mermaid text to `path`.
  /// - Throws: ``DiagramFileError/cannotWrite(path:reason:)``.
  public static func write(mermaid: String, to path: String) throws(DiagramFileError) {
    try write(Array(mermaid.utf8), to: path)
  }

  private static func write(_ bytes: [UInt8], to path: String) throws(DiagramFileError) {
    do {
      try AtomicFile.write(bytes, to: path)
    } catch {
      throw .cannotWrite(path: path, reason: error.description)
    }
  }
}

/// Why a diagram could not be written.
public enum DiagramFileError: Error, Sendable, Hashable {
  /// The format cannot hold this kind of diagram.
  case unsupportedFormat(DiagramFormat, reason: String)
  /// Graphviz failed; its message.
  case renderingFailed(String)
  /// The file could not be written; nothing was left behind.
  case cannotWrite(path: String, reason: String)
}

extension DiagramFileError: CustomStringConvertible {
  /// One line saying what failed.
  public var description: String {
    switch self {
    case .unsupportedFormat(let format, let reason): "cannot write \(format.rawValue): \(reason)"
    case .renderingFailed(let message): "Graphviz failed: \(message)"
    case .cannotWrite(_, let reason): reason
    }
  }
}
