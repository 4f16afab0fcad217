/// What a diagram file holds: Graphviz's DOT source, a picture rendered by libgvc, or a
/// Mermaid `stateDiagram-v2` for Markdown.
public enum DiagramFormat: String, CaseIterable, Sendable, Hashable {
  /// DOT source, unrendered.
  case dot
  /// Scalable vector graphics.
  case svg
  /// A bitmap.
  case png
  /// A PDF page.
  case pdf
  /// A Mermaid `stateDiagram-v2`, which GitHub renders in Markdown (transition graphs only).
  case mermaid

  /// The format named by a file's extension: `.dot`/`.gv`, `.svg`, `.png`, `.pdf`,
  /// `.mmd`/`.mermaid`/`.md`; `nil` for any other.
  public init?(path: String) {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    switch name[name.index(after: dot)...].lowercased() {
    case "dot", "gv": self = .dot
    case "svg": self = .svg
    case "png": self = .png
    case "pdf": self = .pdf
    case "mmd", "mermaid", "md": self = .mermaid
    default: return nil
    }
  }

  /// The Graphviz output format, for the formats Graphviz renders.
  var graphvizFormat: OutputFormat? {
    switch self {
    case .svg: .svg
    case .png: .png
    case .pdf: .pdf
    case .dot, .mermaid: nil
    }
  }
}
