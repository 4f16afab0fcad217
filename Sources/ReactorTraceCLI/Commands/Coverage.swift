import ArgumentParser
import Foundation
import ReactorDiagrams
import ReactorExploration
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace coverage`: how much of a reactor's reachable graph traces exercise.
  struct Coverage: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Measure which reachable states and transitions a set of traces exercises.",
      discussion: """
        Explores the reactor (as explore does; the alphabet is the traces' actions plus \
        --actions, the metadata the first trace's) and matches the traces against the \
        explored graph. Lists every transition no trace makes, with the shortest script that \
        makes it. Exit 4 when the share of transitions exercised is below --min. With \
        --production SUMMARIES (merged transition summaries of production runs), lists \
        instead the states and transitions production reaches that the traces never \
        exercise, most frequent first, each with the shortest script an exploration finds \
        when the reactor is registered. Every file is read as a session (a trace is a \
        session of one reactor); given sessions of many reactors, reports per reactor type: each registered type explored from its registered factory with the actions its \
        reactors were sent, every reactor of the type merged and matched through the type's \
        abstraction (the fields render transitions keeps for it, labels by case name).
        """
    )

    /// The traces, such as a test suite's goldens.
    @Argument(help: "Trace files of the same reactor, or sessions (per reactor type).")
    var traces: [String]

    /// The reactor type.
    @Option(help: "The registered reactor type (default: the first trace's).")
    var reactor: String?

    /// The alphabet, bounds and identity.
    @OptionGroup var exploration: ExplorationArguments

    /// The least transition coverage that passes, in percent.
    @Option(help: "Exit 4 when fewer than this percentage of transitions are exercised.")
    var min: Double?

    /// A saved exploration to measure against instead of exploring.
    @Option(
      name: .customLong("exploration"),
      help:
        "Measure against this saved exploration (explore --graph FILE.json) instead of exploring.")
    var savedExploration: String?

    /// Whether to print JSON.
    @Flag(help: "Print the coverage as JSON.")
    var json = false

    /// Where the coverage diagram goes.
    @Option(
      help: "Write the explored graph, exercised part solid, the rest dashed: .svg .png .dot .pdf.")
    var graph: String?

    /// Transition summaries of production runs to hold the traces against.
    @Option(
      help: """
        Merged transition summaries of production runs: list what they reach that the \
        traces never do.
        """)
    public var production: [String] = []

    /// With `--production`: how many missed states and transitions to list.
    @Option(help: "With --production: list at most this many of each (0: all).")
    public var limit = 20

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Checks the arguments before anything is read.
    func validate() throws {
      guard !traces.isEmpty else { throw ValidationError("Give at least one trace file.") }
      guard limit >= 0 else { throw ValidationError("--limit must be at least 0.") }
      if !production.isEmpty && (min != nil || graph != nil || savedExploration != nil) {
        throw ValidationError(
          "--production cannot be combined with --min, --graph or --exploration.")
      }
      if let min, !(0...100).contains(min) {
        throw ValidationError("--min is a percentage from 0 to 100.")
      }
    }

    /// Explores, matches and reports.
    func run() async throws {
      if !production.isEmpty {
        try await ProductionCoverageRequest(
          production: production, traces: traces, reactor: reactor, arguments: exploration,
          json: json, limit: limit == 0 ? nil : limit
        ).exit()
        return
      }
      try await CoverageRequest(
        traces: traces, reactor: reactor, arguments: exploration,
        savedExploration: savedExploration, minimum: min, json: json, graph: graph
      ).exit()
    }
  }
}

/// What `coverage` was asked to do.
struct CoverageRequest: CommandRequest {
  var traces: [String]
  var reactor: String?
  var arguments: ExplorationArguments
  var savedExploration: String?
  var minimum: Double?
  var json: Bool
  var graph: String?

  /// Computes the coverage, writes what was asked, reports to `output`, and returns the exit
  /// code.
  @MainActor
  func run(output: any TextOutput) async throws -> ExitCode {
    try arguments.refuseToOverwrite(
      inputs: traces + (savedExploration.map { [$0] } ?? []), with: [graph])
    var format: DiagramFormat?
    if let graph {
      guard let resolved = DiagramFormat(path: graph), resolved != .mermaid else {
        throw CommandFailure.unusableInput(
          "cannot tell the format of '\(graph)' from its extension; use .dot, .svg, .png or .pdf")
      }
      format = resolved
    }
    let inputs = try ExplorationInputs(arguments, recordings: traces)
    // A trace is a session of one reactor: recordings of one reactor each are measured whole;
    // recordings of many reactors per reactor type, through each type's abstraction.
    guard inputs.isOneReactorEach else { return try await runTypes(inputs, output: output) }
    if !arguments.reactorType.isEmpty {
      throw CommandFailure.unusableInput(
        "--reactor-type picks reactor types of sessions; the recordings are of one reactor each")
    }
    let exploration: Exploration
    if let savedExploration {
      exploration = try Self.read(savedExploration)
      try checkReactors(inputs, expected: exploration.reactor)
    } else {
      try checkReactors(
        inputs,
        expected: reactor.map { ReactorRegistry.current.registeredName(matching: $0) ?? $0 })
      guard let name = reactor ?? inputs.reactor else {
        throw CommandFailure.unusableInput("no reactor to explore: pass --reactor")
      }
      exploration = try await ExplorationRun.explore(name, in: inputs, arguments: arguments)
    }
    let coverage = try ExplorationCoverage(
      of: exploration, traces: inputs.types.flatMap(\.openers))
    if let graph, let format { try write(coverage, format: format, to: graph) }
    if json {
      output.write(coverage.json.serializedString)
    } else {
      report(coverage, to: output)
    }
    if let minimum, coverage.transitionShare * 100 < minimum {
      throw CommandFailure(
        code: .belowMinimum,
        message: json
          ? nil
          : "transition coverage \(Self.percent(coverage.transitionShare)) is below --min "
            + "\(Self.number(minimum))%")
    }
    return .success
  }

  /// A saved exploration.
  private static func read(_ path: String) throws(CommandFailure) -> Exploration {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CommandFailure.unusableInput("cannot read exploration '\(path)': no such readable file")
    }
    let json: JSONValue
    do {
      json = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
    } catch {
      throw CommandFailure.unusableInput("\(path): not JSON: \(error)")
    }
    do {
      return try Exploration(json: json)
    } catch {
      throw CommandFailure.unusableInput("\(path): \(error.description)")
    }
  }

  /// Fails unless every recording records the same reactor (`expected`, when given).
  private func checkReactors(
    _ inputs: ExplorationInputs, expected: String?
  ) throws(CommandFailure) {
    var expected = expected
    for lane in inputs.lanes {
      if let expected, lane.type != expected {
        throw CommandFailure.unusableInput("\(lane.path) records \(lane.type), not \(expected)")
      }
      expected = lane.type
    }
  }

  private func report(_ coverage: ExplorationCoverage, to output: any TextOutput) {
    let exploration = coverage.exploration
    output.write(
      "\(exploration.reactor): \(coverage.traceCount) trace\(coverage.traceCount == 1 ? "" : "s") "
        + "against \(exploration.states.count) reachable states (stopped by "
        + "\(exploration.stopReason))")
    Self.write(coverage.matched, indent: "", to: output)
    if let graph { output.write("wrote \(graph)") }
  }

  /// Writes the shares of `coverage`, what the traces do beyond the exploration, and each
  /// transition never exercised with the shortest script making it: the one report of a trace
  /// and of each reactor type of sessions.
  static func write(_ coverage: AbstractedCoverage, indent: String, to output: any TextOutput) {
    output.write(
      indent + "states:      \(coverage.exercisedStates.count) of \(coverage.states.count) "
        + "exercised (\(percent(coverage.stateShare)))")
    output.write(
      indent + "transitions: \(coverage.exercisedTransitions.count) of "
        + "\(coverage.transitions.count) exercised (\(percent(coverage.transitionShare)))")
    let outside = [
      (
        coverage.unexploredTransitionCount,
        "the exploration did not reach (actions sent while effects ran, or beyond its bounds)"
      ),
      (
        coverage.streamTransitionCount,
        "through a stream that no action of theirs published (a scripted event, another "
          + "screen or reactor), which exploration does not send"
      ),
    ]
    for (count, reason) in outside where count > 0 {
      output.write(
        indent + "the traces also make " + ExplorationRun.counted(count, "transition") + " "
          + reason)
    }
    let missed = coverage.missedTransitions
    if !missed.isEmpty { output.write(indent + "never exercised:") }
    for index in missed {
      let transition = coverage.transitions[index]
      let script = coverage.exploration.script(forTransition: coverage.firstTransition[index])
      output.write(
        indent + "  \(transition.source) → \(transition.target)  \(transition.mutation) ← "
          + "\(transition.action)   script: \(script.summary)")
    }
  }

  private func write(
    _ coverage: ExplorationCoverage, format: DiagramFormat, to path: String
  ) throws {
    let exploration = coverage.exploration
    let graph = try ExploredGraph.graph(of: exploration)
    var dot = try graph.dotGraph(
      dashedTransitions: Set(coverage.missedTransitions),
      dashedStates: Set(exploration.states.indices).subtracting(coverage.exercisedStates))
    dot.label = .text(
      "\(exploration.reactor)\ncoverage of \(coverage.traceCount) trace"
        + "\(coverage.traceCount == 1 ? "" : "s"): "
        + "\(coverage.exercisedStates.count)/\(exploration.states.count) states, "
        + "\(coverage.exercisedTransitions.count)/\(exploration.transitions.count) "
        + "transitions (dashed: never exercised)")
    try DiagramFile.write(dot, format: format, engine: .dot, to: path)
  }

  static func percent(_ share: Double) -> String {
    String(format: "%.1f%%", share * 100)
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
