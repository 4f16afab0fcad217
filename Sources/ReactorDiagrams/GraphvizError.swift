/// A failure reported by Graphviz, carrying Graphviz's own message text.
public enum GraphvizError: Error, Sendable, Hashable {
  /// The DOT text could not be parsed.
  case invalidDOT(message: String)

  /// The layout engine is unknown or reported an error (for example a malformed HTML label).
  case layoutFailed(engine: LayoutEngine, message: String)

  /// The output format is unknown or rendering reported an error.
  case renderingFailed(format: OutputFormat, message: String)

  /// Graphviz's message text, such as `Error: syntax error in line 1 near '}'`.
  public var message: String {
    switch self {
    case .invalidDOT(let message): message
    case .layoutFailed(_, let message): message
    case .renderingFailed(_, let message): message
    }
  }
}

extension GraphvizError: CustomStringConvertible {
  /// A one-paragraph explanation including Graphviz's message.
  public var description: String {
    switch self {
    case .invalidDOT(let message):
      "Graphviz could not parse the DOT text: \(message)"
    case .layoutFailed(let engine, let message):
      "Graphviz layout with engine '\(engine)' failed: \(message)"
    case .renderingFailed(let format, let message):
      "Graphviz could not render format '\(format)': \(message)"
    }
  }
}
