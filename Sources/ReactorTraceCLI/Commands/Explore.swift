import ArgumentParser
import Foundation
import ReactorDiagrams
import ReactorExploration
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace explore`: the states a registered reactor reaches, breadth first.
  struct Explore: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Explore the states a registered reactor reaches from its initial state.",
      discussion: """
        Every action of the alphabet (--actions SCRIPT and/or --actions-from TRACE) is tried \
        in every state where the reactor comes to rest, breadth first, on a virtual clock \
        that lets effects finish after each action. States are whole states (pulse counters \
        left out) or, with --key, projections. The registry's invariants are checked in \
        every state reached. --path-to prints the shortest script reaching a matching state, \
        as record --actions takes it. Exit 1 when an invariant is broken or --path-to finds \
        no state. Given a recording instead of a type (a session, or a trace as a session of \
        one reactor), explores each registered reactor type of it (or those of --reactor-type) \
        from its registered factory with the actions its reactors were sent (or, for the type \
        --actions names, those actions), and reports each type's graph and its size through \
        the type's abstraction; a type whose reactor traps is reported with the script that \
        traps it, and the others go on.
        """
    )

    /// The reactor type.
    @Argument(
      help: """
        The registered reactor type, e.g. ReactorExamples.CounterReactor, or a session or \
        trace, whose registered reactor types are each explored.
        """)
    var reactor: String

    /// The alphabet, bounds and identity.
    @OptionGroup var exploration: ExplorationArguments

    /// A condition on the state to reach.
    @Option(help: "Print the shortest script to a state matching path=value,path=value.")
    var pathTo: String?

    /// Where the transition graph goes.
    @Option(help: "Write the transition graph: .dot .svg .png .pdf .mmd, or .json.")
    var graph: String?

    /// The graph's format.
    @Option(
      help: """
        The graph's format: dot, svg, png, pdf, mermaid or json (default: from --graph); \
        json without --graph prints the exploration as JSON instead of the report.
        """)
    var format: String?

    /// Where the trace of the script found goes.
    @Option(
      name: .shortAndLong,
      help: "Record the script found (--path-to, or the first broken invariant) as this trace.")
    var output: String?

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Checks the arguments before anything is read.
    func validate() throws {
      if let format, graph == nil, format.lowercased() != "json" {
        throw ValidationError("--format \(format) needs --graph; only json prints to the terminal.")
      }
    }

    /// Explores and reports.
    func run() async throws {
      try await ExploreRequest(
        reactor: reactor, arguments: exploration, pathTo: pathTo, graph: graph, format: format,
        output: output
      ).exit()
    }
  }
}

/// What `explore` was asked to do.
struct ExploreRequest: CommandRequest {
  var reactor: String
  var arguments: ExplorationArguments
  var pathTo: String?
  var graph: String?
  var format: String?
  var output: String?

  /// Explores, writes what was asked, reports to `report`, and returns the exit code.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    if ReactorRegistry.current.entry(named: reactor) == nil,
      FileManager.default.fileExists(atPath: reactor)
    {
      return try await runTypes(output: report)
    }
    try arguments.refuseToOverwrite(inputs: [], with: [graph, output])
    if !arguments.reactorType.isEmpty {
      throw CommandFailure.unusableInput(
        "--reactor-type picks reactor types of a session; '\(reactor)' is a reactor type")
    }
    let condition = try pathTo.map(StateCondition.init(parsing:))
    var graphFormat: DiagramFormat??
    if let graph { graphFormat = try ExplorationGraphOutput.format(path: graph, format: format) }
    let inputs = try ExplorationInputs(arguments)
    let exploration = try await ExplorationRun.explore(
      reactor, in: inputs, arguments: arguments)
    let metadata = inputs.metadata
    if let graph, let graphFormat {
      try ExplorationGraphOutput.write(exploration, format: graphFormat, to: graph)
    }
    if let condition {
      guard let state = exploration.firstState(matching: condition) else {
        throw CommandFailure(
          code: .divergence,
          message: "no explored state matches '\(condition)' (\(exploration.states.count) "
            + "states; stopped by \(exploration.stopReason))")
      }
      let script = exploration.script(to: state)
      for line in script.lines(reactor: reactor, metadata: metadata) { report.write(line) }
      if let output {
        try await ExplorationRun.record(
          script, reactor: reactor, metadata: metadata, to: output)
      }
      return .success
    }
    if graph == nil, format?.lowercased() == "json" {
      report.write(exploration.json.serializedString)
      return exploration.violations.isEmpty ? .success : .divergence
    }
    report.write(
      "explored \(reactor): \(exploration.states.count) states "
        + "(\(exploration.states.count(where: \.isSettled)) resting), "
        + "\(exploration.transitions.count) transitions, \(exploration.runCount) runs")
    let isBroken = write(
      exploration, reactor: reactor, metadata: metadata, wrote: graph, indent: "", to: report)
    if isBroken, let output, let first = exploration.violations.first {
      try await ExplorationRun.record(
        exploration.script(to: first.state), reactor: reactor, metadata: metadata, to: output)
    }
    return isBroken ? .divergence : .success
  }

  /// Explores every registered reactor type of a recording (a session, or a trace as a
  /// session of one reactor) from its registered factory, with the actions its reactors were
  /// sent, and reports each type's graph, also as seen through the type's abstraction.
  @MainActor
  private func runTypes(output report: any TextOutput) async throws -> ExitCode {
    try ExplorationRun.refuse([
      ("--path-to", pathTo != nil), ("--graph", graph != nil), ("--format", format != nil),
      ("--output", output != nil), ("--key", !arguments.keys.isEmpty),
    ])
    var inputs = try ExplorationInputs(arguments, recordings: [reactor])
    try inputs.focus(on: arguments.reactorType)
    report.write(
      "\(reactor): " + ExplorationRun.counted(inputs.lanes.count, "reactor") + " of "
        + ExplorationRun.counted(inputs.types.count, "type") + ", each "
        + "registered type explored from its registered factory with the actions its reactors "
        + "were sent")
    var isBroken = false
    for type in inputs.types {
      let reactors = ExplorationRun.counted(type.lanes.count, "reactor")
      let exploration: Exploration
      switch await ExplorationRun.explore(type, in: inputs, arguments: arguments) {
      case .explored(let explored): exploration = explored
      case .skipped(let reason):
        report.write("\(type.shortName) (\(reactors)): \(reason)")
        continue
      case .trapped(let lines):
        report.write("\(type.shortName) (\(reactors)): " + (lines.first ?? ""))
        for line in lines.dropFirst() { report.write("  " + line) }
        isBroken = true
        continue
      }
      let abstraction = try type.abstraction()
      let abstract = Set(
        exploration.states.map { ExplorationRun.abstractState($0.value, abstraction) })
      report.write(
        "\(type.shortName) (\(reactors)): explored "
          + ExplorationRun.counted(exploration.states.count, "state")
          + " (\(exploration.states.count(where: \.isSettled)) resting), "
          + ExplorationRun.counted(exploration.transitions.count, "transition") + ", "
          + ExplorationRun.counted(exploration.runCount, "run") + "; through the type's "
          + "abstraction " + ExplorationRun.counted(abstract.count, "state"))
      if write(
        exploration, reactor: type.type, metadata: inputs.metadata, wrote: nil, indent: "  ",
        to: report)
      {
        isBroken = true
      }
    }
    return isBroken ? .divergence : .success
  }

  /// Writes an exploration's alphabet, bound, unsettled runs and invariants, each broken one
  /// with the script that breaks it; returns whether one is broken.
  @MainActor
  private func write(
    _ exploration: Exploration, reactor: String, metadata: [String: String], wrote: String?,
    indent: String, to report: any TextOutput
  ) -> Bool {
    report.write(indent + "alphabet: " + exploration.alphabet.map(\.label).joined(separator: ", "))
    report.write(indent + "stopped by: \(exploration.stopReason)")
    if exploration.unsettledRunCount > 0 {
      report.write(
        indent + "warning: \(exploration.unsettledRunCount) runs still had effects running "
          + "after --settle \(arguments.settle) ms")
    }
    if let wrote { report.write("wrote \(wrote)") }
    guard !exploration.violations.isEmpty else {
      report.write(
        indent
          + (exploration.invariants.isEmpty
            ? "invariants: none registered"
            : "invariants: \(exploration.invariants.count) checked in every state, none broken"))
      return false
    }
    for violation in exploration.violations {
      let script = exploration.script(to: violation.state)
      report.write(
        indent + "invariant '\(violation.invariant)' broken in "
          + "\(exploration.states[violation.state].value.serializedString) after "
          + ExplorationRun.counted(script.steps.count, "action") + ": " + script.summary)
      for line in script.lines(reactor: reactor, metadata: metadata) {
        report.write(indent + "  " + line)
      }
    }
    return true
  }
}
