import ArgumentParser
import ReactorExport
import ReactorTracing

extension ReactorTraceCommand.Render {
  /// `reactor-trace render otlp`: the trace as OpenTelemetry spans, OTLP JSON Lines.
  struct OTLP: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      commandName: "otlp",
      abstract: "Export a trace as OpenTelemetry spans (OTLP JSON Lines, the file exporter's).",
      discussion: """
        One OpenTelemetry trace per action, one TracesData per line: the action is the root \
        span, its effects child spans with their status (OK, ERROR with the error; a \
        cancelled effect keeps UNSET and says cancelled), mutations span events naming the \
        state paths they changed; the reactor type, schema and metadata are resource \
        attributes. A session (format 2) gives the spans of every reactor, each with its id \
        and name, and a cause from another reactor becomes a span link to the sender's span. \
        An OpenTelemetry Collector's OTLP JSON file receiver reads the file and \
        forwards it to Jaeger, Tempo or ClickHouse. Times are Unix nanoseconds from the \
        clock's origin (from 1970 for virtual clocks).
        """
    )

    /// The trace to export.
    @Argument(help: "A trace or session file.")
    var trace: String

    /// The output file.
    @Option(name: .shortAndLong, help: "The file to write (.jsonl; - for stdout).")
    var output: String

    /// `--strict`.
    @OptionGroup var strictness: StrictOption

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Converts the trace and writes it.
    func run() async throws {
      try await OTLPRequest(trace: trace, output: output, strict: strictness.strict).exit()
    }
  }
}

/// What `render otlp` was asked to do.
struct OTLPRequest: CommandRequest {
  var trace: String
  var output: String
  var strict: Bool

  /// Converts the trace, writes it, reports to `report`, and returns the exit code.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    try TraceExport.run(trace: trace, output: output, strict: strict, report: report) {
      session, write in
      let export = try OTLPTrace(session: session)
      write(export.jsonLines)
      return "\(export.lines.count) traces, \(export.spanCount) spans"
    }
  }
}
