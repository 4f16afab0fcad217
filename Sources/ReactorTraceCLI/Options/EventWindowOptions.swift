import ArgumentParser

/// `--reactor`, `--from`, `--to` and `--page-size`: which reactors and events a drawing over
/// time shows, and how many events make a page (`render timeline`, `render sequence`).
struct EventWindowOptions: ParsableArguments, Sendable {
  /// The reactors to draw.
  @Option(
    name: .customLong("reactor"),
    help: "Draw only this reactor (its id; a trace's reactor is 1); repeatable.")
  var reactors: [Int] = []

  /// The first event to draw.
  @Option(help: "The first event (seq) to draw.")
  var from: Int?

  /// The last event to draw.
  @Option(help: "The last event (seq) to draw.")
  var to: Int?

  /// Events per page, or `nil` for one page.
  @Option(help: "Split into pages of this many events: OUTPUT-1.svg, OUTPUT-2.svg, …")
  var pageSize: Int?

  /// Creates the options; ArgumentParser fills them in.
  init() {}

  /// Checks the options before anything is read.
  /// - Parameter output: The file the drawing goes to.
  /// - Throws: `ValidationError` naming the option that is out of range.
  func validate(output: String) throws {
    if let from, from < 1 { throw ValidationError("--from must be at least 1.") }
    if let from, let to, to < from { throw ValidationError("--to must not be before --from.") }
    if let pageSize, pageSize < 1 { throw ValidationError("--page-size must be at least 1.") }
    if pageSize != nil, output == OutputFiles.standardOutput {
      throw ValidationError("--page-size writes several files; give -o a file name, not -.")
    }
    if reactors.contains(where: { $0 < 1 }) {
      throw ValidationError("--reactor takes a reactor's id, 1 or more.")
    }
  }
}
