public import ArgumentParser
import ReactorExport
import ReactorTracing

extension ReactorTraceCommand.Render {
  /// `reactor-trace render perfetto`: the trace as Chrome JSON trace events, for
  /// ui.perfetto.dev.
  public struct Perfetto: ParsableCommand {
    /// The command's help.
    public static let configuration = CommandConfiguration(
      abstract: "Export a trace as Chrome JSON trace events, to open in ui.perfetto.dev.",
      discussion: """
        The reactor is a process: actions and mutations are instants on tracks of their own \
        (mutations carry their state changes as arguments), each concurrent effect a slice on \
        its own track from start to finish, cancellation or failure, and flow arrows lead from \
        each action to its effects and mutations. Times are the trace's clock, in microseconds.
        """
    )

    /// The trace to export.
    @Argument(help: "A trace file.")
    public var trace: String

    /// The output file.
    @Option(name: .shortAndLong, help: "The file to write (.json).")
    public var output: String

    /// `--strict`.
    @OptionGroup public var strictness: StrictOption

    /// Creates the command; ArgumentParser fills in the options.
    public init() {}

    /// Converts the trace and writes it.
    public func run() throws {
      try OutputFiles.refuse([output], ifAnyIs: [trace])
      do {
        let reader = try TraceReader(path: trace)
        let export = try PerfettoTrace(reader: reader)
        let warnings = TraceWarningReport(
          path: trace, warnings: reader.warnings, eventCount: reader.eventCount)
        try TraceWarningReport.print([warnings], failingIfStrict: strictness.strict)
        try OutputFiles.write(export.serialized, to: output, inputs: [trace])
        if output == OutputFiles.standardOutput { return }
        print("wrote \(output): \(export.eventCount) trace events")
      } catch let error as TraceReadError {
        throw CommandFailure.unusableInput(error.description)
      } catch let error as AtomicFileError {
        throw CommandFailure.unusableInput(error.description)
      }
    }
  }
}
