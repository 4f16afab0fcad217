import ArgumentParser
import ReactorDiagrams
import ReactorFleet
import ReactorStateMachines
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
        observed transitions labelled with the mutation and the action behind it. \
        --summary FILE draws merged transition summaries (summarize, or the DuckDB and Spark \
        merges in fleet/) instead of traces: the production state machine, edge width by how \
        often each transition happens, rare ones orange; --reactor and --app-version choose \
        the lines.
        """
    )

    /// The traces to draw.
    @Argument(help: "Trace files of the same reactor.")
    var traces: [String] = []

    /// Merged transition summaries to draw instead of traces.
    @Option(help: "Draw these transition summaries (.jsonl, .jsonl.gz) instead of traces.")
    var summary: [String] = []

    /// With `--summary`: the reactor to draw.
    @Option(help: "With --summary: the reactor to draw, when the lines hold several.")
    var reactor: String?

    /// With `--summary`: the app version to draw.
    @Option(help: "With --summary: draw only this app version's lines.")
    var appVersion: String?

    /// How states become nodes.
    @OptionGroup var states: StateAbstractionOptions

    /// Of a session: the reactor type to draw.
    @Option(help: "Of a session: draw only this reactor type (its name, with or without module).")
    var reactorType: String?

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
      guard traces.isEmpty != summary.isEmpty else {
        throw ValidationError("Give trace files or --summary files (not both).")
      }
      if !summary.isEmpty && (states.wholeState || !states.keys.isEmpty || !states.fields.isEmpty) {
        throw ValidationError("--summary draws states as the summaries abstracted them.")
      }
      if summary.isEmpty && (reactor != nil || appVersion != nil) {
        throw ValidationError("--reactor and --app-version choose lines of --summary files.")
      }
      guard minCount >= 1 else { throw ValidationError("--min-count must be at least 1.") }
      guard hops >= 0 else { throw ValidationError("--hops must be at least 0.") }
    }

    /// Builds the graph and writes it.
    func run() async throws {
      let filter = TransitionFilter(
        minimumCount: minCount, hidesSelfLoops: hideSelfLoops, focus: focus, hops: hops)
      if !summary.isEmpty {
        try await ProductionDiagramRequest(
          summaries: summary,
          selection: ProductionGraph.Selection(reactor: reactor, appVersion: appVersion),
          filter: filter, format: format, diagram: diagram
        ).exit()
        return
      }
      try await TransitionsRequest(
        traces: traces, states: states, filter: filter, format: format, diagram: diagram,
        reactorType: reactorType
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
  var reactorType: String? = nil

  /// Builds the machines, writes them, reports to `report`, and returns the exit code.
  ///
  /// A trace is a session of one reactor: the machine of each reactor type the files hold,
  /// the lanes of every reactor of the type merged, the default abstraction inferred per type.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    let format = try diagram.resolvedFormat(
      format, accepting: DiagramFormat.allCases, for: "transition graph")
    let engine = try diagram.resolvedEngine(default: .dot)
    try OutputFiles.refuse([diagram.output], ifAnyIs: traces)
    let files = try traces.map { path throws(TraceReadError) in try ReactorLanes(path: path) }
    var reports: [TraceWarningReport] = []
    let machines = try SessionTransitions(
      files: files, reactorType: reactorType, filter: filter,
      abstraction: { type, lanes in
        if states.wholeState { return .wholeState }
        guard states.keys.isEmpty else {
          // --key applies to every type drawn: one that lacks the field is refused, by name.
          if let first = lanes.first, let unknown = states.unknownKey(in: try first().header) {
            let types = files.first?.types ?? []
            throw CommandFailure.unusableInput(
              types.count > 1
                ? "\(unknown) (in \(ReactorIntroduction.shortTypeName(type)); --reactor-type "
                  + "picks one type)" : unknown)
          }
          return StateAbstraction(keys: try states.statePaths())
        }
        return try StateAbstraction.inferred(fromTraces: lanes, overrides: try states.overrides())
      },
      read: { reader in
        reports.append(
          TraceWarningReport(
            path: reader.path, warnings: reader.warnings, eventCount: reader.eventCount))
      })
    try TraceWarningReport.print(reports, failingIfStrict: diagram.strictness.strict)
    let bytes: [UInt8]
    if format == .mermaid {
      bytes = Array(try machines.mermaid().utf8)
    } else {
      let drawn = try machines.diagram(engine: engine)
      let output = try DiagramFile.renderReportingWarnings(
        drawn.graph, format: format, engine: drawn.engine)
      bytes = output.bytes
      for warning in output.warnings {
        CommandFailure.printWarning("warning: \(diagram.output): \(warning)")
      }
    }
    try OutputFiles.write(bytes, to: diagram.output, inputs: traces)
    if diagram.output != OutputFiles.standardOutput {
      report.write("wrote \(diagram.output): " + machines.summary)
    }
    return .success
  }
}

/// What `render transitions --summary` was asked to draw.
struct ProductionDiagramRequest: CommandRequest {
  var summaries: [String]
  var selection: ProductionGraph.Selection
  var filter: TransitionFilter
  var format: String?
  var diagram: DiagramOptions

  /// Reads and merges the summaries, draws them, reports to `report`, and returns the exit
  /// code.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    let format = try diagram.resolvedFormat(
      format, accepting: DiagramFormat.allCases, for: "transition graph")
    let engine = try diagram.resolvedEngine(default: .dot)
    let paths = try FleetFiles.expand(summaries, extensions: FleetFiles.summaryExtensions)
    try OutputFiles.refuse([diagram.output], ifAnyIs: paths)
    var set = SummarySet()
    for path in paths { try set.add(contentsOf: path) }
    var production = try ProductionGraph(summaries: set.summaries, selection: selection)
    try production.filter(by: filter)
    let bytes: [UInt8]
    if format == .mermaid {
      bytes = Array(try production.graph.mermaid().utf8)
    } else {
      let output = try DiagramFile.renderReportingWarnings(
        try production.graph.frequencyDotGraph(title: production.title), format: format,
        engine: engine)
      bytes = output.bytes
      for warning in output.warnings {
        CommandFailure.printWarning("warning: \(diagram.output): \(warning)")
      }
    }
    try OutputFiles.write(bytes, to: diagram.output, inputs: paths)
    if diagram.output != OutputFiles.standardOutput {
      report.write(
        "wrote \(diagram.output): \(production.graph.states.count) states, "
          + "\(production.graph.transitions.count) transitions from "
          + "\(production.graph.mutationCount) production mutations")
    }
    return .success
  }
}
