import ArgumentParser
import ReactorDiagrams
import ReactorTracing

extension ReactorTraceCommand.Render {
  /// `reactor-trace render transitions`: the states a reactor went through and the observed
  /// transitions between them.
  struct Transitions: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Draw the states a reactor went through and the transitions between them.",
      discussion: """
        Several traces of the same reactor merge into one graph, drawn as a state machine: \
        each field of the state shows by what it holds (Booleans and enums as they are, a \
        field with few distinct values as its value, otherwise nil / non-nil, an item count \
        or empty / non-empty, or not at all), pulses are events on the edges that fire them, \
        and a legend says how each field is drawn. --field NAME=HOW overrides one field \
        (HOW: value, case, nil, empty, count, omit, event); --key projects states onto the \
        given fields instead; --whole-state makes every distinct state a node. Edges are \
        observed transitions labelled with the mutation and the action behind it.
        """
    )

    /// The traces to draw.
    @Argument(help: "Trace files of the same reactor.")
    var traces: [String]

    /// How states become nodes.
    @OptionGroup var states: StateAbstractionOptions

    /// The least count a transition needs to be drawn.
    @Option(help: "Leave out transitions seen fewer times than this.")
    var minCount = 1

    /// Whether to leave out transitions from a state to itself.
    @Flag(help: "Leave out transitions from a state to itself.")
    var hideSelfLoops = false

    /// A state whose neighbourhood alone is drawn.
    @Option(help: "Draw only the states around this one (its id, like s3, or its text).")
    var focus: String?

    /// How far around the focus to draw.
    @Option(help: "With --focus: how many transitions away from it to draw.")
    var hops = 1

    /// The format, or `nil` to take it from the output file's extension.
    @Option(
      help: """
        dot, svg, png, pdf or mermaid (default: from the output's extension: .dot .svg .png \
        .pdf .mmd).
        """)
    var format: String?

    /// The output.
    @OptionGroup var diagram: DiagramOptions

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Checks the arguments before anything is read.
    func validate() throws {
      guard !traces.isEmpty else { throw ValidationError("Give at least one trace file.") }
      guard minCount >= 1 else { throw ValidationError("--min-count must be at least 1.") }
      guard hops >= 0 else { throw ValidationError("--hops must be at least 0.") }
    }

    /// Builds the graph and writes it.
    func run() async throws {
      try await TransitionsRequest(
        traces: traces, states: states,
        filter: TransitionFilter(
          minimumCount: minCount, hidesSelfLoops: hideSelfLoops, focus: focus, hops: hops),
        format: format, diagram: diagram
      ).exit()
    }
  }
}

/// What `render transitions` was asked to do.
struct TransitionsRequest: CommandRequest {
  var traces: [String]
  var states: StateAbstractionOptions
  var filter: TransitionFilter
  var format: String?
  var diagram: DiagramOptions

  /// Builds the graph, writes it, reports to `report`, and returns the exit code.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    let format = try diagram.resolvedFormat(
      format, accepting: DiagramFormat.allCases, for: "transition graph")
    let engine = try diagram.resolvedEngine(default: .dot)
    try OutputFiles.refuse([diagram.output], ifAnyIs: traces)
    var collected = TransitionGraph(abstraction: try states.abstraction(forTracesAt: traces))
    var warnings: [TraceWarningReport] = []
    for path in traces {
      let reader = try TraceReader(path: path)
      if warnings.isEmpty, let unknown = states.unknownKey(in: reader.header) {
        throw CommandFailure.unusableInput(unknown)
      }
      try collected.add(reader)
      warnings.append(
        TraceWarningReport(path: path, warnings: reader.warnings, eventCount: reader.eventCount))
    }
    try TraceWarningReport.print(warnings, failingIfStrict: diagram.strictness.strict)
    let graph = try collected.filtered(by: filter)
    let bytes: [UInt8]
    if format == .mermaid {
      bytes = Array(try graph.mermaid().utf8)
    } else {
      let output = try DiagramFile.renderReportingWarnings(
        try graph.dotGraph(), format: format, engine: engine)
      bytes = output.bytes
      for warning in output.warnings {
        CommandFailure.printError("warning: \(diagram.output): \(warning)")
      }
    }
    try OutputFiles.write(bytes, to: diagram.output, inputs: traces)
    if diagram.output != OutputFiles.standardOutput {
      report.write(
        "wrote \(diagram.output): \(graph.states.count) states, "
          + "\(graph.transitions.count) transitions from \(graph.mutationCount) mutations")
    }
    return .success
  }
}
