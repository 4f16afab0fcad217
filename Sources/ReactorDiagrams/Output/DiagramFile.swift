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
    let bytes: [UInt8]
    var warnings: [String] = []
    if let graphvizFormat = format.graphvizFormat {
      do {
        let output = try GraphvizRenderer(textMeasurement: textMeasurement)
          .renderReportingWarnings(graph, engine: engine, format: graphvizFormat)
        bytes = output.bytes
        warnings = output.warnings
      } catch {
        throw .renderingFailed(error.description)
      }
    } else if format == .dot {
      bytes = Array(graph.serialized().utf8)
    } else {
      throw .unsupportedFormat(format, reason: "only transition graphs can be written as Mermaid")
    }
    try write(bytes, to: path)
    return warnings
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
