import ArgumentParser
import ReactorTracing

/// What a trace's reader noticed without failing, reported the same way by every command: one
/// line each on standard error naming the file, and a `warnings` array in a ``Verdict``.
struct TraceWarningReport: Sendable {
  /// The trace file.
  var path: String
  /// The reader's warnings, in the order it noticed them.
  var warnings: [TraceWarning]
  /// How many complete events were read.
  var eventCount: Int

  /// Whether there is nothing to report.
  var isEmpty: Bool { warnings.isEmpty }

  /// The lines for standard error: `warning: counter.trace.jsonl: line 20 is incomplete …;
  /// 18 complete events read`, or `error (--strict): …` when `strict` makes them failures.
  func lines(strict: Bool) -> [String] {
    warnings.map { warning in
      (strict ? "error (--strict): " : "warning: ") + "\(path): \(warning); "
        + (eventCount == 1 ? "1 complete event read" : "\(eventCount) complete events read")
    }
  }

  /// Writes ``lines(strict:)`` to standard error.
  func print(strict: Bool) {
    for line in lines(strict: strict) { CommandFailure.printWarning(line) }
  }

  /// Writes each report's ``lines(strict:)`` to standard error and, under `--strict`, fails
  /// with exit code 3 when any of them has a warning.
  static func print(_ reports: [TraceWarningReport], failingIfStrict strict: Bool)
    throws(CommandFailure)
  {
    for report in reports { report.print(strict: strict) }
    if strict, reports.contains(where: { !$0.isEmpty }) {
      throw .strictWarnings
    }
  }

  /// The note for a verdict line of an incomplete trace: `(incomplete trace: 2 warnings)`.
  var verdictNote: String {
    "(incomplete trace: " + (warnings.count == 1 ? "1 warning" : "\(warnings.count) warnings")
      + ")"
  }
}
