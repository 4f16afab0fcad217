public import ArgumentParser
import ReactorReplay
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace diff`: where two traces of the same reactor first diverge.
  public struct Diff: ParsableCommand {
    /// The command's help.
    public static let configuration = CommandConfiguration(
      abstract: "Show where two traces of the same reactor first diverge.",
      discussion: """
        Exit codes: 0 the traces match, 1 they diverge, 2 unusable input, 3 warnings about a \
        trace under --strict.
        """
    )

    /// The first trace.
    @Argument(help: "The first trace.")
    public var first: String

    /// The second trace.
    @Argument(help: "The second trace.")
    public var second: String

    /// Whether to print JSON.
    @Flag(help: "Print the result as one JSON object (with 'warnings' when there are any).")
    public var json = false

    /// Whether warnings fail the comparison.
    @OptionGroup public var strictness: StrictOption

    /// Creates the command; ArgumentParser fills in the options.
    public init() {}

    /// Compares and reports.
    public func run() throws {
      let divergence: TraceDivergence?
      var warnings: [TraceWarningReport] = []
      do {
        let readers = (try TraceReader(path: first), try TraceReader(path: second))
        divergence = try TraceDiff.firstDivergence(readers.0, readers.1)
        for (path, reader) in [(first, readers.0), (second, readers.1)] {
          // The rest of each trace, for what its reader notices at its end.
          while try reader.next() != nil {}
          warnings.append(
            TraceWarningReport(
              path: path, warnings: reader.warnings, eventCount: reader.eventCount))
        }
      } catch {
        throw CommandFailure.unusableInput(error.description)
      }
      for report in warnings { report.print(strict: strictness.strict) }
      let hasWarnings = warnings.contains { !$0.isEmpty }
      var result = JSONObject()
      if hasWarnings {
        result["warnings"] = .array(
          warnings.flatMap { report in
            report.warnings.map { .string("\(report.path): \($0)") }
          })
      }
      if let divergence {
        if json {
          result["result"] = "divergence"
          result["seq"] = .int(Int64(divergence.sequence))
          result["report"] = .string(divergence.description)
          print(JSONValue.object(result).serializedString)
        } else {
          print("divergence: \(divergence)")
        }
        throw CommandFailure.divergence()
      }
      if json {
        result["result"] = "match"
        print(JSONValue.object(result).serializedString)
      } else {
        print(
          "match" + (hasWarnings ? " (incomplete traces: see the warnings)" : "")
            + ": \(first) and \(second) record the same events and states")
      }
      if strictness.strict, hasWarnings { throw ExitCode(CommandFailure.strictWarningsCode) }
    }
  }
}
