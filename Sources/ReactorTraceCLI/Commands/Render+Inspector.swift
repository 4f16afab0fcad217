import ArgumentParser
import ReactorDiagrams
import ReactorInspector
import ReactorStateMachines
import ReactorTracing

extension ReactorTraceCommand.Render {
  /// `reactor-trace render inspector`: one self-contained HTML page for stepping through a
  /// trace.
  struct Inspector: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Write an offline inspector for a trace: one self-contained HTML file.",
      discussion: """
        The page lists the events (filter by kind, by text, or by a state path they changed), \
        travels to the state after any of them (click, or ← → Home End) with what changed \
        highlighted, shows each event's causes and its effect's outcome, and the transitions \
        diagram with the current state marked, drawn as render transitions draws it with the \
        same --key, --field or --whole-state. It needs no network and no reactor-trace.

        A session (many reactors, format 2.0) gets a lane per reactor in the overview, a \
        reactor filter, every live reactor's state at the selected moment, causes that cross \
        reactors, and one transitions diagram per reactor type (its inferred state machine).
        """
    )

    /// The trace to inspect.
    @Argument(help: "A trace file or a session.")
    var trace: String

    /// The output file.
    @Option(name: .shortAndLong, help: "The file to write (.html).")
    var output: String

    /// How the diagram's states become nodes, as in render transitions.
    @OptionGroup var states: StateAbstractionOptions

    /// The most events to embed.
    @Option(help: "Embed at most this many events; the page says when the trace was cut.")
    var maxEvents = 1_000_000

    /// `--strict`.
    @OptionGroup var strictness: StrictOption

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Checks the arguments before anything is read.
    func validate() throws {
      guard maxEvents >= 1 else { throw ValidationError("--max-events must be at least 1.") }
    }

    /// Makes the page and writes it.
    func run() async throws {
      try await InspectorRequest(
        trace: trace, output: output, states: states, maxEvents: maxEvents,
        strict: strictness.strict
      ).exit()
    }
  }
}

/// What `render inspector` was asked to do.
struct InspectorRequest: CommandRequest {
  var trace: String
  var output: String
  var states: StateAbstractionOptions
  var maxEvents: Int
  var strict: Bool

  /// Makes the page, writes it, reports to `report`, and returns the exit code.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    try OutputFiles.refuse([output], ifAnyIs: [trace])
    // A trace that cannot be opened is said before the output is touched.
    _ = try SessionReader(path: trace, verifyingStates: false)
    if !states.keys.isEmpty, let reader = try? TraceReader(path: trace),
      let unknown = states.unknownKey(in: reader.header)
    {
      throw CommandFailure.unusableInput(unknown)
    }
    // Without --key, --field or --whole-state the page infers each reactor type's machine.
    let isChosen = !states.keys.isEmpty || !states.fields.isEmpty || states.wholeState
    let abstraction = isChosen ? try states.abstraction(forTracesAt: [trace]) : nil
    // The page goes out as the trace is read; a strict failure leaves the output as it was.
    let stream = try OutputFiles.Stream(path: output, inputs: [trace], isHeldUntilCommit: strict)
    let page = try InspectorPage.write(
      tracePath: trace,
      options: InspectorOptions(maximumEvents: maxEvents, abstraction: abstraction),
      to: stream.write)
    let warnings = TraceWarningReport(
      path: trace, warnings: page.warnings, eventCount: page.traceEventCount)
    try TraceWarningReport.print([warnings], failingIfStrict: strict)
    try stream.commit()
    if output == OutputFiles.standardOutput { return .success }
    var summary = "wrote \(output): \(page.eventCount) events"
    if page.eventCount < page.traceEventCount {
      summary += " of \(page.traceEventCount) (--max-events)"
    }
    summary += ", \(page.snapshotCount) state snapshot\(page.snapshotCount == 1 ? "" : "s")"
    report.write(summary)
    if let note = page.diagramNote { report.write(note) }
    return .success
  }
}
