import ArgumentParser
import ReactorCommandLine
import ReactorComparison
import ReactorDiagrams
import ReactorFleet
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace compare`: what changed in behaviour between two sets of runs, beyond
  /// chance.
  struct Compare: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Report what changed in behaviour between two sets of runs, beyond chance.",
      discussion: """
        compare BEFORE AFTER: each side is summary files (summarize, or the merges in \
        fleet/), traces and sessions (summarized on the fly, one abstraction per reactor \
        type for both sides), globs or directories; quote a side of several files as a \
        glob or a directory, or give one set and split it: compare SET --before \
        appVersion=3.1.4 --after appVersion=3.2.0 (any metadata key; repeatable, all must \
        hold). Per reactor type it reports transitions added and removed, and shifts of a \
        transition's share among those leaving its state (two-sided, Fisher's exact test for \
        small counts, else the two-proportion z-test), and moves in how its effects ended; \
        all corrected together by Benjamini-Hochberg at --alpha. Transitions seen on one \
        side only that the sizes cannot tell from chance are listed apart. -o draws the \
        union machine (.svg .png .pdf .dot .mmd): added green, removed red dashed, shifts \
        thicker or thinner by their ratio. Exit 0 when nothing changed significantly, 1 \
        when something did, 2 for unusable input.
        """
    )

    /// The two sides, or the set to split.
    @Argument(help: "BEFORE AFTER (files, globs, directories), or one SET with --before/--after.")
    var inputs: [String]

    /// The before side's metadata conditions.
    @Option(name: .customLong("before"), help: "Split SET: the before side's KEY=VALUE.")
    var beforeConditions: [String] = []

    /// The after side's metadata conditions.
    @Option(name: .customLong("after"), help: "Split SET: the after side's KEY=VALUE.")
    var afterConditions: [String] = []

    /// The false discovery rate.
    @Option(help: "The false discovery rate held over all tests (Benjamini-Hochberg).")
    var alpha = 0.05

    /// Abstractions for traces.
    @Option(help: "Abstract traces' states as this file saves them (summarize --abstraction).")
    var abstraction: String?

    /// Whether to write JSON.
    @Flag(help: "Write the comparison as one JSON object instead of the report.")
    var json = false

    /// The diagram.
    @Option(name: .shortAndLong, help: "Draw the union machine: .svg .png .pdf .dot .mmd.")
    var output: String?

    /// With several reactor types: the one to draw.
    @Option(help: "With -o: the reactor type to draw, when both sides hold several.")
    var reactor: String?

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Checks the arguments before anything is read.
    func validate() throws {
      let isSplit = !beforeConditions.isEmpty || !afterConditions.isEmpty
      if isSplit {
        guard !beforeConditions.isEmpty, !afterConditions.isEmpty else {
          throw ValidationError("Give both --before and --after to split a set.")
        }
        guard inputs.count == 1 else {
          throw ValidationError(
            "With --before and --after, give one set (files as a glob or a directory).")
        }
      } else {
        guard inputs.count == 2 else {
          throw ValidationError(
            "Give BEFORE and AFTER (several files as a glob or a directory), or one set with --before and --after."
          )
        }
      }
      guard alpha > 0, alpha < 1 else { throw ValidationError("--alpha must be between 0 and 1.") }
    }

    /// Compares and reports.
    func run() async throws {
      try await CompareRequest(
        inputs: inputs, beforeConditions: beforeConditions, afterConditions: afterConditions,
        alpha: alpha, abstractionFile: abstraction, json: json, output: output, reactor: reactor
      ).exit()
    }
  }
}

/// What `compare` was asked to do.
struct CompareRequest: CommandRequest {
  var inputs: [String]
  var beforeConditions: [String]
  var afterConditions: [String]
  var alpha: Double
  var abstractionFile: String?
  var json: Bool
  var output: String?
  var reactor: String?

  /// Reads both sides, compares them, writes the report (and the diagram), and returns 1
  /// when something changed significantly.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    let format = try output.map { path throws(CommandFailure) in
      guard let format = DiagramFormat(path: path) else {
        throw CommandFailure.unusableInput(
          "cannot tell the format of '\(path)' from its extension; use .svg, .png, .pdf, .dot or .mmd"
        )
      }
      return format
    }
    if let output { try OutputFiles.refuse([output], ifAnyIs: inputs) }
    var saved = AbstractionFile()
    if let abstractionFile {
      saved = try AbstractionFile(
        bytes: try FleetFiles.contents(of: abstractionFile), path: abstractionFile)
    }
    let sides: ComparisonInputs
    let labels: (before: String, after: String)
    if beforeConditions.isEmpty {
      sides = try ComparisonInputs(before: [inputs[0]], after: [inputs[1]], saved: saved)
      labels = ("before", "after")
    } else {
      let before = try beforeConditions.map { text throws(ComparisonError) in
        try ComparisonInputs.Condition(parsing: text)
      }
      let after = try afterConditions.map { text throws(ComparisonError) in
        try ComparisonInputs.Condition(parsing: text)
      }
      sides = try ComparisonInputs(set: inputs, before: before, after: after, saved: saved)
      labels = (
        before.map(\.value).joined(separator: " "), after.map(\.value).joined(separator: " ")
      )
    }
    for warning in sides.warnings { StandardError.print("warning: " + warning) }
    let comparison = try FleetComparison(
      before: sides.before, after: sides.after, alpha: alpha, labels: labels)
    if let output, let format {
      try draw(comparison, format: format, to: output)
    }
    if json {
      report.write(comparison.json.serializedString)
    } else {
      comparison.report.forEach(report.write)
    }
    return comparison.hasChanges ? .divergence : .success
  }

  /// Draws the union machine of the one reactor type (or the one `--reactor` names).
  @MainActor
  private func draw(
    _ comparison: FleetComparison, format: DiagramFormat, to path: String
  ) throws {
    let names = comparison.reactors.map(\.name)
    let chosen: FleetComparison.Reactor
    if let reactor {
      guard
        let found = comparison.reactors.first(where: {
          $0.name == reactor || ReactorIntroduction.shortTypeName($0.name) == reactor
        })
      else {
        throw CommandFailure.unusableInput(
          "no reactor \(reactor) on both sides; they hold: " + names.joined(separator: ", "))
      }
      chosen = found
    } else {
      guard comparison.reactors.count == 1 else {
        throw CommandFailure.unusableInput(
          "both sides hold \(names.count) reactor types; choose one to draw with --reactor: "
            + names.joined(separator: ", "))
      }
      chosen = comparison.reactors[0]
    }
    let (graph, changes) = try chosen.unionGraph()
    var marks: [Int: TransitionChangeMark] = [:]
    for (index, change) in changes {
      let kind: TransitionChangeMark.Kind
      let note: String
      let before = FleetComparison.number(change.before.count)
      let after = FleetComparison.number(change.after.count)
      switch change.kind {
      case .added:
        kind = .added
        note = "new in \(comparison.afterLabel): \(after)"
      case .removed:
        kind = .removed
        note = "gone in \(comparison.afterLabel): \(before) before"
      case .shift:
        kind = .shifted(ratio: change.ratio)
        note = "×\(FleetComparison.decimal(change.ratio, places: 2)) share: \(before) → \(after)"
      case .outcome:
        kind = .outcome
        note =
          "\(change.outcome ?? "") ×\(FleetComparison.decimal(change.ratio, places: 2)): \(before) → \(after)"
      }
      marks[index] = TransitionChangeMark(kind: kind, note: note)
    }
    let bytes: [UInt8]
    if format == .mermaid {
      bytes = Array(try graph.changeMermaid(marks: marks).utf8)
    } else {
      let title = "\(chosen.name): \(comparison.beforeLabel) → \(comparison.afterLabel)"
      let rendered = try DiagramFile.renderReportingWarnings(
        try graph.changeDotGraph(title: title, marks: marks), format: format, engine: .dot)
      for warning in rendered.warnings { StandardError.print("warning: \(path): \(warning)") }
      bytes = rendered.bytes
    }
    try OutputFiles.write(bytes, to: path, inputs: inputs)
  }
}
