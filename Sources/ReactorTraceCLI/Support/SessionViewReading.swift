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
  ///   - namingTraces: Whether a trace of one reactor is called a trace and counted by its own
  ///     events (`render timeline`), rather than a session that includes its introduction
  ///     (`render sequence`, as it always did).
  /// - Throws: ``CommandFailure`` for an unknown reactor, an empty range, or warnings under
  ///   `--strict`; the reader's error for a line it cannot read.
  @MainActor
  static func finish(
    _ reader: SessionReader, introduced: [Int], reactors: [Int], range: ClosedRange<Int>?,
    shownEvents: Int, from: Int?, to: Int?, trace: String, strict: Bool,
    namingTraces: Bool = false
  ) throws {
    var introduced = Set(introduced)
    while let event = try reader.next() {
      if case .introduced(let introduction) = event.kind { introduced.insert(introduction.reactor) }
    }
    // A trace of one reactor reads with an introduction of its own, not one of its events.
    let isTrace = namingTraces && reader.header.isTraceOfOneReactor
    let noun = isTrace ? "trace" : "session"
    let eventCount = reader.eventCount - (isTrace ? 1 : 0)
    let first = isTrace ? reader.header.window?.firstSequence ?? 1 : 1
    let unknown = reactors.filter { !introduced.contains($0) }
    if !unknown.isEmpty {
      throw CommandFailure.unusableInput(
        "no reactor \(unknown.map(String.init).joined(separator: ", ")) in the \(noun); its "
          + "reactors are \(introduced.sorted().map(String.init).joined(separator: ", "))")
    }
    let warnings = TraceWarningReport(
      path: trace, warnings: reader.warnings, eventCount: eventCount)
    warnings.print(strict: strict)
    if range != nil, shownEvents == 0 {
      throw CommandFailure.unusableInput(
        "no event of the \(noun) is in "
          + [from.map { "--from \($0)" }, to.map { "--to \($0)" }].compactMap { $0 }
          .joined(separator: " ")
          + ": its events are \(first) to \(first + eventCount - 1)")
    }
    if strict, !warnings.isEmpty { throw CommandFailure.strictWarnings }
  }
}
