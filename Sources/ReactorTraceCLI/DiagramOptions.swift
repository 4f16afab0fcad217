public import ArgumentParser
import ReactorDiagrams

/// Where a diagram goes and in what format: shared by the `render` subcommands.
public struct DiagramOptions: ParsableArguments {
  /// The output file.
  @Option(name: .shortAndLong, help: "The file to write.")
  public var output: String

  /// The format, or `nil` to take it from the output file's extension.
  @Option(
    help: """
      dot, svg, png, pdf or mermaid (default: from the output's extension: .dot .svg .png \
      .pdf .mmd).
      """)
  public var format: String?

  /// The Graphviz layout engine, or `nil` for the diagram's own default.
  @Option(help: "The Graphviz layout engine: dot, neato, fdp, sfdp, circo, twopi, osage, nop.")
  public var engine: String?

  /// Creates the options; ArgumentParser fills them in.
  public init() {}

  /// The format asked for, or an exit with code 2 naming the problem.
  func resolvedFormat() throws(ExitCode) -> DiagramFormat {
    if let format {
      guard let resolved = DiagramFormat(rawValue: format.lowercased()) else {
        throw CommandFailure.unusableInput(
          "unknown format '\(format)'; use dot, svg, png, pdf or mermaid")
      }
      return resolved
    }
    guard let resolved = DiagramFormat(path: output) else {
      throw CommandFailure.unusableInput(
        "cannot tell the format of '\(output)' from its extension; "
          + "use .dot, .svg, .png, .pdf or .mmd, or pass --format")
    }
    return resolved
  }

  /// The engine asked for, or `fallback`.
  func resolvedEngine(default fallback: LayoutEngine) throws(ExitCode) -> LayoutEngine {
    guard let engine else { return fallback }
    let known = LayoutEngine.all.map(\.rawValue)
    guard known.contains(engine) else {
      throw CommandFailure.unusableInput(
        "unknown layout engine '\(engine)'; use one of \(known.joined(separator: ", "))")
    }
    return LayoutEngine(rawValue: engine)
  }
}
