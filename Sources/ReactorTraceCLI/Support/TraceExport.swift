import ArgumentParser
import ReactorTracing

/// The body `render perfetto` and `render otlp` share: read a trace or a session, report its
/// warnings, write what a converter makes of it, and say what was written.
enum TraceExport {
  /// Converts the trace or session `trace` with `convert` and writes the bytes to `output` as
  /// they come.
  ///
  /// - Parameters:
  ///   - trace: The file to read; never overwritten.
  ///   - output: The file to write, or `-` for standard output.
  ///   - strict: Whether reader warnings fail the command before anything is written.
  ///   - report: Where the "wrote …" line goes (nothing for standard output).
  ///   - convert: Reads from the reader, gives the bytes to write to its second argument piece
  ///     by piece, and returns what they hold, for the report.
  /// - Returns: `.success` once the output is written.
  /// - Throws: A ``CommandFailure`` or the reader's or converter's error, printed as one line
  ///   by the caller.
  @MainActor
  static func run(
    trace: String, output: String, strict: Bool, report: any TextOutput,
    convert: (SessionReader, ([UInt8]) -> Void) throws -> String
  ) throws -> ExitCode {
    try OutputFiles.refuse([output], ifAnyIs: [trace])
    let reader = try SessionReader(path: trace)
    let stream = try OutputFiles.Stream(path: output, inputs: [trace], isHeldUntilCommit: strict)
    let summary = try convert(reader, stream.write)
    // A trace of one reactor reads with an introduction that is not one of its lines.
    let lines = reader.eventCount - (reader.header.isTraceOfOneReactor ? 1 : 0)
    let warnings = TraceWarningReport(
      path: trace, warnings: reader.warnings, eventCount: max(0, lines))
    try TraceWarningReport.print([warnings], failingIfStrict: strict)
    try stream.commit()
    if output == OutputFiles.standardOutput { return .success }
    report.write("wrote \(output): \(summary)")
    return .success
  }
}
