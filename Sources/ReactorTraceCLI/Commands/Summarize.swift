import ArgumentParser
import ReactorDiagrams
import ReactorFleet
import ReactorStateMachines
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace summarize`: per-trace (and per-session) transition summaries for a fleet's
  /// engines.
  struct Summarize: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract:
        "Summarize traces and sessions as counted transitions, one JSON line per transition.",
      discussion: """
        For each trace or session and each reactor type, one line per distinct transition \
        (state before, action case, mutation case, state after, under the type's state \
        abstraction) with its count, first and last time, and how the effects behind it \
        ended; every reactor of a type in a session adds to the same lines. docs/fleet.md \
        gives the shape. Inputs are files, globs or directories (every .trace.jsonl and \
        .session.jsonl, gzipped or not, below it; with --merge also .jsonl and .jsonl.gz \
        summaries); gzip is read by content. Files that are neither traces nor sessions (nor \
        summaries, with --merge) are skipped, each named on stderr. \
        States are abstracted the same way across runs: --key or --field, or --abstraction \
        FILE, which is read when it exists and otherwise written with the abstraction \
        inferred from these traces. --merge adds up lines with equal keys, from traces and \
        from summary files, as the DuckDB query and the Spark job in fleet/ do at scale. An \
        output ending in .gz is gzipped. Exit 2 for unusable input, 3 for trace warnings \
        under --strict.
        """
    )

    /// The traces (and summaries, with `--merge`).
    @Argument(
      help: "Trace and session files, globs or directories (and summary files with --merge).")
    var inputs: [String]

    /// Where the lines go.
    @Option(name: .shortAndLong, help: "The summary file (.jsonl, .jsonl.gz, - for stdout).")
    var output: String = "-"

    /// How states are abstracted.
    @OptionGroup var states: StateAbstractionOptions

    /// The file the abstraction is read from or saved to.
    @Option(
      help: """
        Read each reactor's abstraction from this file, inferring and adding the ones it \
        lacks; it is created when missing.
        """)
    var abstraction: String?

    /// Metadata kept for grouping.
    @Option(
      name: .customLong("metadata"),
      help: "Keep this metadata key in every line and group by it (repeatable; appVersion always).")
    var metadataKeys: [String] = []

    /// Whether to merge lines.
    @Flag(help: "Merge everything (traces and summary files) into one line per transition.")
    var merge = false

    /// Whether trace warnings fail the command.
    @Flag(help: "Exit 3 when a trace has warnings (torn, unfinished, gaps).")
    var strict = false

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Checks the arguments before anything is read.
    func validate() throws {
      guard !inputs.isEmpty else { throw ValidationError("Give at least one trace.") }
      if abstraction != nil && (states.wholeState || !states.keys.isEmpty) {
        throw ValidationError("--abstraction cannot be combined with --key or --whole-state.")
      }
    }

    /// Summarizes and writes.
    func run() async throws {
      try await SummarizeRequest(
        inputs: inputs, output: output, choice: try choice(), abstractionFile: abstraction,
        metadataKeys: Set(metadataKeys), merge: merge, strict: strict
      ).exit()
    }

    private func choice() throws -> Summarization.Choice {
      if states.wholeState { return .wholeState }
      if !states.keys.isEmpty { return .keys(try states.statePaths()) }
      return .inferred(overrides: try states.overrides())
    }
  }
}

/// What `summarize` was asked to do.
struct SummarizeRequest: CommandRequest {
  var inputs: [String]
  var output: String
  var choice: Summarization.Choice
  var abstractionFile: String?
  var metadataKeys: Set<String>
  var merge: Bool
  var strict: Bool

  /// Summarizes, writes the lines (and the abstraction file), reports to `report`, and
  /// returns the exit code.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    let extensions = FleetFiles.traceExtensions + (merge ? FleetFiles.summaryExtensions : [])
    let paths = try FleetFiles.expand(inputs, extensions: extensions)
    try OutputFiles.refuse([output] + (abstractionFile.map { [$0] } ?? []), ifAnyIs: paths)
    var run = Summarization(choice: choice, metadataKeys: metadataKeys)
    if let abstractionFile, FleetFiles.isRegularFile(abstractionFile) {
      run.saved = try AbstractionFile(
        bytes: try FleetFiles.contents(of: abstractionFile), path: abstractionFile)
    }
    let result = try run.summarize(paths, merging: merge)
    result.skipped.forEach(CommandFailure.printWarning)
    for warning in result.warnings {
      CommandFailure.printWarning((strict ? "error: " : "warning: ") + warning)
    }
    if strict && !result.warnings.isEmpty { throw CommandFailure.strictWarnings }
    if let abstractionFile, result.abstractions != run.saved {
      try OutputFiles.write(result.abstractions.bytes, to: abstractionFile, inputs: paths)
    }
    let lines = SummarySet.jsonLines(result.summaries)
    try OutputFiles.write(FleetFiles.encoded(lines, for: output), to: output, inputs: paths)
    if output != OutputFiles.standardOutput {
      var what = "\(result.traceCount) trace\(result.traceCount == 1 ? "" : "s")"
      what += " (\(result.eventCount) events)"
      if result.summaryFileCount > 0 {
        what += " and \(result.summaryFileCount) summar"
        what += result.summaryFileCount == 1 ? "y" : "ies"
      }
      report.write(
        "wrote \(output): \(result.summaries.count) transition line"
          + "\(result.summaries.count == 1 ? "" : "s") from \(what)")
    }
    return .success
  }
}
