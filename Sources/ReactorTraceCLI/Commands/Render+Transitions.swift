public import ArgumentParser
import ReactorDiagrams
import ReactorFleet
import ReactorTracing

extension ReactorTraceCommand.Render {
  /// `reactor-trace render transitions`: the states a reactor went through and the observed
  /// transitions between them.
  public struct Transitions: ParsableCommand {
    /// The command's help.
    public static let configuration = CommandConfiguration(
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
    public var traces: [String] = []

    /// Merged transition summaries to draw instead of traces.
    @Option(help: "Draw these transition summaries (.jsonl, .jsonl.gz) instead of traces.")
    public var summary: [String] = []

    /// With `--summary`: the reactor to draw.
    @Option(help: "With --summary: the reactor to draw, when the lines hold several.")
    public var reactor: String?

    /// With `--summary`: the app version to draw.
    @Option(help: "With --summary: draw only this app version's lines.")
    public var appVersion: String?

    /// How states become nodes.
    @OptionGroup public var states: StateAbstractionOptions

    /// The least count a transition needs to be drawn.
    @Option(help: "Leave out transitions seen fewer times than this.")
    public var minCount = 1

    /// Whether to leave out transitions from a state to itself.
    @Flag(help: "Leave out transitions from a state to itself.")
    public var hideSelfLoops = false

    /// A state whose neighbourhood alone is drawn.
    @Option(help: "Draw only the states around this one (its id, like s3, or its text).")
    public var focus: String?

    /// How far around the focus to draw.
    @Option(help: "With --focus: how many transitions away from it to draw.")
    public var hops = 1

    /// The format, or `nil` to take it from the output file's extension.
    @Option(
      help: """
        dot, svg, png, pdf or mermaid (default: from the output's extension: .dot .svg .png \
        .pdf .mmd).
        """)
    public var format: String?

    /// The output.
    @OptionGroup public var diagram: DiagramOptions

    /// Creates the command; ArgumentParser fills in the options.
    public init() {}

    /// Checks the arguments before anything is read.
    public func validate() throws {
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
    public func run() throws {
      let format = try diagram.resolvedFormat(
        format, accepting: DiagramFormat.allCases, for: "transition graph")
      let engine = try diagram.resolvedEngine(default: .dot)
      let filter = TransitionFilter(
        minimumCount: minCount, hidesSelfLoops: hideSelfLoops, focus: focus, hops: hops)
      if !summary.isEmpty {
        let request = ProductionDiagramRequest(
          summaries: summary,
          selection: ProductionGraph.Selection(
            reactor: reactor, appVersion: appVersion),
          filter: filter, format: format, engine: engine, output: diagram.output)
        let code = request.execute()
        if code != 0 { throw ExitCode(code) }
        return
      }
      try OutputFiles.refuse([diagram.output], ifAnyIs: traces)
      let bytes: [UInt8]
      let graph: TransitionGraph
      do {
        var collected = TransitionGraph(
          abstraction: try states.abstraction(forTracesAt: traces))
        var warnings: [TraceWarningReport] = []
        for path in traces {
          let reader: TraceReader
          do {
            reader = try TraceReader(path: path)
          } catch {
            throw CommandFailure.unusableInput(error.description)
          }
          if warnings.isEmpty, let unknown = states.unknownKey(in: reader.header) {
            throw CommandFailure.unusableInput(unknown)
          }
          try collected.add(reader)
          warnings.append(
            TraceWarningReport(
              path: path, warnings: reader.warnings, eventCount: reader.eventCount))
        }
        try TraceWarningReport.print(warnings, failingIfStrict: diagram.strictness.strict)
        graph = try collected.filtered(by: filter)
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
      } catch let error as TransitionGraphError {
        throw CommandFailure.unusableInput(error.description)
      } catch let error as DiagramFileError {
        throw CommandFailure.unusableInput(error.description)
      }
      try OutputFiles.write(bytes, to: diagram.output, inputs: traces)
      if diagram.output != OutputFiles.standardOutput {
        print(
          "wrote \(diagram.output): \(graph.states.count) states, "
            + "\(graph.transitions.count) transitions from \(graph.mutationCount) mutations")
      }
    }
  }
}

/// What `render transitions --summary` was asked to draw.
struct ProductionDiagramRequest: Sendable {
  var summaries: [String]
  var selection: ProductionGraph.Selection
  var filter: TransitionFilter
  var format: DiagramFormat
  var engine: LayoutEngine
  var output: String

  /// Reads and merges the summaries, draws them and returns the exit code.
  func execute() -> Int32 {
    do throws(ExitCode) {
      let paths: [String]
      let production: ProductionGraph
      let bytes: [UInt8]
      do throws(FleetError) {
        paths = try FleetFiles.expand(
          summaries,
          extensions: [
            ".summary.jsonl", ".summary.jsonl.gz", "summaries.jsonl", "summaries.jsonl.gz",
          ])
        var set = SummarySet()
        for path in paths { try set.add(contentsOf: path) }
        var graph = try ProductionGraph(summaries: set.summaries, selection: selection)
        try graph.filter(by: filter)
        production = graph
        let dot = try production.dotGraph()
        if format == .mermaid {
          bytes = Array(try Self.mermaid(production).utf8)
        } else {
          do {
            let output = try DiagramFile.renderReportingWarnings(
              dot, format: format, engine: engine)
            bytes = output.bytes
            for warning in output.warnings {
              CommandFailure.printError("warning: \(self.output): \(warning)")
            }
          } catch {
            throw FleetError.mixedSummaries(error.description)
          }
        }
      } catch {
        throw CommandFailure.unusableInput(error.description)
      }
      try OutputFiles.write(bytes, to: output, inputs: paths)
      if output != OutputFiles.standardOutput {
        print(
          "wrote \(output): \(production.graph.states.count) states, "
            + "\(production.graph.transitions.count) transitions from "
            + "\(production.graph.mutationCount) production mutations")
      }
      return 0
    } catch {
      return error.rawValue
    }
  }

  private static func mermaid(_ production: ProductionGraph) throws(FleetError) -> String {
    do {
      return try production.graph.mermaid()
    } catch {
      throw .abstraction(error)
    }
  }
}
