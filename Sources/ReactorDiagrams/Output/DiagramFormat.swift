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
    self.init(name: String(name[name.index(after: dot)...]))
  }

  /// The format a `--format` option names, ignoring case: its name (`mermaid`) or one of its
  /// file extensions (`mmd`, `gv`), so that what `-o x.mmd` accepts `--format mmd` does too;
  /// `nil` for any other.
  public init?(name: String) {
    switch name.lowercased() {
    case "dot", "gv": self = .dot
    case "svg": self = .svg
    case "png": self = .png
    case "pdf": self = .pdf
    case "mermaid", "mmd", "md": self = .mermaid
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
