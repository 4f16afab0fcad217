import ArgumentParser
import ReactorTracing

/// The body `render perfetto` and `render otlp` share: read a trace, report its warnings,
/// write what a converter makes of it, and say what was written.
enum TraceExport {
  /// Converts `trace` with `convert` and writes the bytes to `output`.
  ///
  /// - Parameters:
  ///   - trace: The trace file to read; never overwritten.
  ///   - output: The file to write, or `-` for standard output.
  ///   - strict: Whether reader warnings fail the command before anything is written.
  ///   - report: Where the "wrote …" line goes (nothing for standard output).
  ///   - convert: Turns the reader into the bytes to write and what they hold, for the report.
  /// - Returns: `.success` once the output is written.
  /// - Throws: A ``CommandFailure`` or the converter's error, printed as one line by the caller.
  @MainActor
  static func run(
    trace: String, output: String, strict: Bool, report: any TextOutput,
    convert: (TraceReader) throws -> (bytes: [UInt8], summary: String)
  ) throws -> ExitCode {
    try OutputFiles.refuse([output], ifAnyIs: [trace])
    let reader = try TraceReader(path: trace)
    let (bytes, summary) = try convert(reader)
    let warnings = TraceWarningReport(
      path: trace, warnings: reader.warnings, eventCount: reader.eventCount)
    try TraceWarningReport.print([warnings], failingIfStrict: strict)
    try OutputFiles.write(bytes, to: output, inputs: [trace])
    if output == OutputFiles.standardOutput { return .success }
    report.write("wrote \(output): \(summary)")
    return .success
  }
}
