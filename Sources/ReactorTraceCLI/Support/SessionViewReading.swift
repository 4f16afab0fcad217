import ReactorTracing

/// What `render sequence` and `render timeline` check of a session once its view is drawn.
enum SessionViewReading {
  /// Reads the rest of the session (for what the reader notices at its end and the reactors
  /// it introduces later), refuses `--reactor` ids it does not have and a `--from/--to` that
  /// shows no event, and prints the reader's warnings.
  ///
  /// - Parameters:
  ///   - reader: The session's reader, where the view stopped reading.
  ///   - introduced: The reactors the view saw introduced.
  ///   - reactors: The reactors `--reactor` asked for.
  ///   - range: The events `--from/--to` asked for, or `nil`.
  ///   - shownEvents: How many events the view shows.
  ///   - from: `--from`, to name it in the message.
  ///   - to: `--to`, to name it in the message.
  ///   - trace: The session file, for the warnings.
  ///   - strict: Whether warnings fail the command.
  /// - Throws: ``CommandFailure`` for an unknown reactor, an empty range, or warnings under
  ///   `--strict`; the reader's error for a line it cannot read.
  @MainActor
  static func finish(
    _ reader: SessionReader, introduced: [Int], reactors: [Int], range: ClosedRange<Int>?,
    shownEvents: Int, from: Int?, to: Int?, trace: String, strict: Bool
  ) throws {
    var introduced = Set(introduced)
    while let event = try reader.next() {
      if case .introduced(let introduction) = event.kind { introduced.insert(introduction.reactor) }
    }
    let unknown = reactors.filter { !introduced.contains($0) }
    if !unknown.isEmpty {
      throw CommandFailure.unusableInput(
        "no reactor \(unknown.map(String.init).joined(separator: ", ")) in the session; its "
          + "reactors are \(introduced.sorted().map(String.init).joined(separator: ", "))")
    }
    let warnings = TraceWarningReport(
      path: trace, warnings: reader.warnings, eventCount: reader.eventCount)
    warnings.print(strict: strict)
    if range != nil, shownEvents == 0 {
      throw CommandFailure.unusableInput(
        "no event of the session is in "
          + [from.map { "--from \($0)" }, to.map { "--to \($0)" }].compactMap { $0 }
          .joined(separator: " ")
          + ": its events are 1 to \(reader.eventCount)")
    }
    if strict, !warnings.isEmpty { throw CommandFailure.strictWarnings }
  }
}
