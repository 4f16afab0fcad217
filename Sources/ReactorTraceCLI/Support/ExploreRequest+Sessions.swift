import ArgumentParser
import ReactorExploration
import ReactorTracing

extension ExploreRequest {
  /// Explores every registered reactor type of a session from its registered factory, with
  /// the actions its reactors were sent, and reports each type's graph, also as seen through
  /// the type's abstraction, and its invariants.
  @MainActor
  func runSession(output report: any TextOutput) async throws -> ExitCode {
    try SessionReactorTypes.refuse([
      ("--path-to", pathTo != nil), ("--graph", graph != nil), ("--format", format != nil),
      ("--output", output != nil), ("--actions", arguments.script != nil),
      ("--actions-from", !arguments.actionTraces.isEmpty), ("--key", !arguments.keys.isEmpty),
    ])
    let sessions = try SessionReactorTypes(sessions: [reactor])
    report.write(
      "\(reactor): \(sessions.reactorCount) reactors of \(sessions.types.count) types, each "
        + "registered type explored from its registered factory with the actions its reactors "
        + "were sent")
    var isBroken = false
    for type in sessions.types {
      let count = type.lanes.count
      let reactors = SessionReactorTypes.counted(count, "reactor")
      let exploration: Exploration
      switch await SessionReactorTypes.explore(
        type, metadata: sessions.metadata, arguments: arguments)
      {
      case .explored(let explored): exploration = explored
      case .skipped(let reason):
        report.write("\(type.shortName) (\(reactors)): \(reason)")
        continue
      }
      let abstract = Set(exploration.states.map { type.abstractState($0.value) })
      report.write(
        "\(type.shortName) (\(reactors)): explored "
          + SessionReactorTypes.counted(exploration.states.count, "state")
          + " (\(exploration.states.count(where: \.isSettled)) resting), "
          + SessionReactorTypes.counted(exploration.transitions.count, "transition") + ", "
          + SessionReactorTypes.counted(exploration.runCount, "run") + "; through the type's "
          + "abstraction " + SessionReactorTypes.counted(abstract.count, "state"))
      report.write("  alphabet: " + exploration.alphabet.map(\.label).joined(separator: ", "))
      report.write("  stopped by: \(exploration.stopReason)")
      if exploration.unsettledRunCount > 0 {
        report.write(
          "  warning: \(exploration.unsettledRunCount) runs still had effects running after "
            + "--settle \(arguments.settle) ms")
      }
      guard !exploration.violations.isEmpty else {
        report.write(
          exploration.invariants.isEmpty
            ? "  invariants: none registered"
            : "  invariants: \(exploration.invariants.count) checked in every state, none broken")
        continue
      }
      isBroken = true
      for violation in exploration.violations {
        let script = exploration.script(to: violation.state)
        report.write(
          "  invariant '\(violation.invariant)' broken in "
            + "\(exploration.states[violation.state].value.serializedString) after "
            + SessionReactorTypes.counted(script.steps.count, "action") + ": " + script.summary)
      }
    }
    return isBroken ? .divergence : .success
  }
}
