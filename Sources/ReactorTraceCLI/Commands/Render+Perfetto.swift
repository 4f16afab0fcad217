import ArgumentParser
import ReactorExport
import ReactorTracing

extension ReactorTraceCommand.Render {
  /// `reactor-trace render perfetto`: the trace as Chrome JSON trace events, for
  /// ui.perfetto.dev.
  struct Perfetto: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Export a trace as Chrome JSON trace events, to open in ui.perfetto.dev.",
      discussion: """
        The reactor is a process: actions and mutations are instants on tracks of their own \
        (mutations carry their state changes as arguments), each concurrent effect a slice on \
        its own track from start to finish, cancellation or failure, and flow arrows lead from \
        each action to its effects and mutations. A session (format 2) gives a process per \
        reactor, named by its name, id and type, with the same tracks, and flow arrows across \
        reactors: from the effect that sent an action or published a stream element to the \
        action or mutation it caused. Times are the trace's clock, in microseconds.
        """
    )

    /// The trace to export.
    @Argument(help: "A trace or session file.")
    var trace: String

    /// The output file.
    @Option(name: .shortAndLong, help: "The file to write (.json).")
    var output: String

    /// `--strict`.
    @OptionGroup var strictness: StrictOption

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Converts the trace and writes it.
    func run() async throws {
      try await PerfettoRequest(trace: trace, output: output, strict: strictness.strict).exit()
    }
  }
}

/// What `render perfetto` was asked to do.
struct PerfettoRequest: CommandRequest {
  var trace: String
  var output: String
  var strict: Bool

  /// Converts the trace, writes it, reports to `report`, and returns the exit code.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    try TraceExport.run(trace: trace, output: output, strict: strict, report: report) {
      session, write in
      "\(try PerfettoTrace.write(session: session, to: write).eventCount) trace events"
    }
  }
}
