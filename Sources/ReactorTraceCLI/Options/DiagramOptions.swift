import ArgumentParser
import ReactorDiagrams

/// Where a diagram goes and how it is laid out: shared by the `render` subcommands, which
/// each take `--format` with the formats they accept.
struct DiagramOptions: ParsableArguments, Sendable {
  /// The output file.
  @Option(name: .shortAndLong, help: "The file to write.")
  var output: String

  /// The Graphviz layout engine, or `nil` for the diagram's own default.
  @Option(help: "The Graphviz layout engine: dot, neato, fdp, sfdp, circo, twopi, osage, nop.")
  var engine: String?

  /// Whether warnings about a trace fail the command.
  @OptionGroup var strictness: StrictOption

  /// Creates the options; ArgumentParser fills them in.
  init() {}

  /// The format asked for with `format`, or else the output's extension's, among
  /// `accepted`; or an exit with code 2 naming the problem and the accepted formats.
  func resolvedFormat(
    _ format: String?, accepting accepted: [DiagramFormat], for diagram: String
  ) throws(CommandFailure) -> DiagramFormat {
    let names = accepted.map(\.rawValue)
    let list = names.dropLast().joined(separator: ", ") + " or " + names.last!
    let resolved: DiagramFormat
    if let format {
      guard let named = DiagramFormat(name: format) else {
        throw CommandFailure.unusableInput("unknown format '\(format)'; use \(list)")
      }
      resolved = named
    } else {
      guard let named = DiagramFormat(path: output) else {
        let extensions = accepted.map { $0 == .mermaid ? ".mmd" : ".\($0.rawValue)" }
        throw CommandFailure.unusableInput(
          "cannot tell the format of '\(output)' from its extension; "
            + "use \(extensions.joined(separator: ", ")), or pass --format")
      }
      resolved = named
    }
    guard accepted.contains(resolved) else {
      throw CommandFailure.unusableInput(
        "a \(diagram) cannot be written as \(resolved); use \(list)")
    }
    return resolved
  }

  /// The engine asked for, or `fallback`.
  func resolvedEngine(default fallback: LayoutEngine) throws(CommandFailure) -> LayoutEngine {
    guard let engine else { return fallback }
    let known = LayoutEngine.all.map(\.rawValue)
    guard known.contains(engine) else {
      throw CommandFailure.unusableInput(
        "unknown layout engine '\(engine)'; use one of \(known.joined(separator: ", "))")
    }
    return LayoutEngine(rawValue: engine)
  }
}
