import ArgumentParser
import ReactorDiagrams
import ReactorExploration
import ReactorTracing

/// Writes an exploration's transition graph.
enum ExplorationGraphOutput {
  /// What `--graph` and `--format` ask for: a diagram format, or `nil` for JSON.
  static func format(path: String, format: String?) throws(CommandFailure) -> DiagramFormat? {
    if let format {
      if format.lowercased() == "json" { return nil }
      guard let resolved = DiagramFormat(name: format) else {
        throw CommandFailure.unusableInput(
          "unknown format '\(format)'; use dot, svg, png, pdf, mermaid or json")
      }
      return resolved
    }
    if path.lowercased().hasSuffix(".json") { return nil }
    guard let resolved = DiagramFormat(path: path) else {
      throw CommandFailure.unusableInput(
        "cannot tell the format of '\(path)' from its extension; "
          + "use .dot, .svg, .png, .pdf, .mmd or .json, or pass --format")
    }
    return resolved
  }

  /// Writes the graph in `format` (JSON when `nil`).
  /// - Throws: The graph's, the renderer's or the file's error.
  static func write(
    _ exploration: Exploration, format: DiagramFormat?, to path: String
  ) throws {
    guard let format else {
      try AtomicFile.write(Array((exploration.json.serializedString + "\n").utf8), to: path)
      return
    }
    let graph = try ExploredGraph.graph(of: exploration)
    if format == .mermaid {
      try DiagramFile.write(mermaid: try graph.mermaid(), to: path)
    } else {
      var dot = try graph.dotGraph()
      dot.label = .text(ExploredGraph.title(of: exploration))
      try DiagramFile.write(dot, format: format, engine: .dot, to: path)
    }
  }
}
