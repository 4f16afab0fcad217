import ArgumentParser
import ReactorReplay
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace diff`: where two traces of the same reactor first diverge.
  struct Diff: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Show where two traces (or two sessions) first diverge.",
      discussion: """
        A trace of one reactor compares as a session of one; for sessions (many reactors, \
        format 2.0), the first event that differs names its reactor. Exit codes: 0 the \
        traces match, 1 they diverge, 2 unusable input, 3 warnings \
        about a trace under --strict.
        """
    )

    /// The first trace.
    @Argument(help: "The first trace.")
    var first: String

    /// The second trace.
    @Argument(help: "The second trace.")
    var second: String

    /// Whether to print JSON.
    @Flag(help: "Print the result as one JSON object (with 'warnings' when there are any).")
    var json = false

    /// Whether warnings fail the comparison.
    @OptionGroup var strictness: StrictOption

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Compares and reports.
    func run() async throws {
      try await DiffRequest(first: first, second: second, json: json, strict: strictness.strict)
        .exit()
    }
  }
}

/// What `diff` was asked to do.
struct DiffRequest: CommandRequest {
  var first: String
  var second: String
  var json: Bool
  var strict: Bool

  /// Compares the traces, reports to `output`, and returns the exit code.
  ///
  /// A trace of one reactor reads as a session of one: traces, sessions, and one of each
  /// compare alike.
  @MainActor
  func run(output: any TextOutput) async throws -> ExitCode {
    let readers = (try SessionReader(path: first), try SessionReader(path: second))
    let divergence = try TraceDiff.firstDivergence(readers.0, readers.1)
    var warnings: [TraceWarningReport] = []
    for (path, reader) in [(first, readers.0), (second, readers.1)] {
      // The rest of each trace, for what its reader notices at its end.
      while try reader.next() != nil {}
      warnings.append(
        TraceWarningReport(
          path: path, warnings: reader.warnings, eventCount: reader.fileEventCount))
    }
    for report in warnings { report.print(strict: strict) }
    let hasWarnings = warnings.contains { !$0.isEmpty }
    let warningTexts = warnings.flatMap { report in
      report.warnings.map { "\(report.path): \($0)" }
    }
    if let divergence {
      if json {
        output.write(
          Verdict(
            outcome: .divergence(
              sequence: divergence.sequence, report: divergence.description),
            reactor: divergence.reactor.map { .int(Int64($0)) }, warnings: warningTexts
          ).serialized)
      } else {
        output.write("divergence: \(divergence)")
      }
      return .divergence
    }
    if json {
      output.write(Verdict(outcome: .match(checked: nil), warnings: warningTexts).serialized)
    } else {
      output.write(
        "match" + (hasWarnings ? " (incomplete traces: see the warnings)" : "")
          + ": \(first) and \(second) record the same events and states")
    }
    return strict && hasWarnings ? .strictWarnings : .success
  }
}
