import ArgumentParser
import ReactorTracing

/// The body `render perfetto` and `render otlp` share: read a trace, report its warnings,
/// write what a converter makes of it, and say what was written.
enum TraceExport {
  /// Converts `trace` with `convert` and writes the bytes to `output` as they come.
  ///
  /// - Parameters:
  ///   - trace: The trace file to read; never overwritten.
  ///   - output: The file to write, or `-` for standard output.
  ///   - strict: Whether reader warnings fail the command before anything is written.
  ///   - report: Where the "wrote …" line goes (nothing for standard output).
  ///   - convert: Reads the trace from the reader, gives the bytes to write to its second
  ///     argument piece by piece, and returns what they hold, for the report.
  /// - Returns: `.success` once the output is written.
  /// - Throws: A ``CommandFailure`` or the converter's error, printed as one line by the caller.
  @MainActor
  static func run(
    trace: String, output: String, strict: Bool, report: any TextOutput,
    convert: (TraceReader, ([UInt8]) -> Void) throws -> String
  ) throws -> ExitCode {
    try run(
      trace: trace, output: output, strict: strict, report: report,
      open: { path throws in try TraceReader(path: path) },
      warnings: { ($0.warnings, $0.eventCount) }, convert: convert)
  }

  /// Converts the trace or session `trace`, read by the reader `open` makes, with `convert`
  /// and writes the bytes to `output` as they come.
  ///
  /// - Parameters:
  ///   - trace: The file to read; never overwritten.
  ///   - output: The file to write, or `-` for standard output.
  ///   - strict: Whether reader warnings fail the command before anything is written.
  ///   - report: Where the "wrote …" line goes (nothing for standard output).
  ///   - open: Opens the reader on the file.
  ///   - warnings: The reader's warnings and how many events it read, once converted.
  ///   - convert: Reads from the reader, gives the bytes to write to its second argument piece
  ///     by piece, and returns what they hold, for the report.
  /// - Returns: `.success` once the output is written.
  /// - Throws: A ``CommandFailure`` or the reader's or converter's error, printed as one line
  ///   by the caller.
  @MainActor
  static func run<Reader>(
    trace: String, output: String, strict: Bool, report: any TextOutput,
    open: (String) throws -> Reader, warnings: (Reader) -> ([TraceWarning], Int),
    convert: (Reader, ([UInt8]) -> Void) throws -> String
  ) throws -> ExitCode {
    try OutputFiles.refuse([output], ifAnyIs: [trace])
    let reader = try open(trace)
    let stream = try OutputFiles.Stream(path: output, inputs: [trace], isHeldUntilCommit: strict)
    let summary = try convert(reader, stream.write)
    let (found, eventCount) = warnings(reader)
    let warningReport = TraceWarningReport(path: trace, warnings: found, eventCount: eventCount)
    try TraceWarningReport.print([warningReport], failingIfStrict: strict)
    try stream.commit()
    if output == OutputFiles.standardOutput { return .success }
    report.write("wrote \(output): \(summary)")
    return .success
  }
}
