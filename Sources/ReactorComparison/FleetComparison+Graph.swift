import ReactorFleet
public import ReactorStateMachines

extension FleetComparison.Reactor {
  /// The union of both sides' machines (each transition counted once: the counts are the
  /// changes' to tell), and the
  /// significant change of each transition that has one (an added, removed or shifted
  /// transition wins over an outcome change), by index in the graph's transitions.
  ///
  /// - Returns: The graph and the changes.
  /// - Throws: ``TransitionGraphError/tooLargeToCollect(limit:)`` for a graph beyond the
  ///   collection limit; ``FleetError`` when the abstraction cannot be read back.
  public func unionGraph() throws -> (graph: TransitionGraph, changes: [Int: TransitionChange]) {
    var graph = TransitionGraph(abstraction: try StateAbstraction(summaryText: abstraction))
    graph.setReactor(name)
    var byTransition: [StateTransition: TransitionChange] = [:]
    for change in changes where byTransition[change.transition]?.kind != .shift {
      if change.kind != .outcome || byTransition[change.transition] == nil {
        byTransition[change.transition] = change
      }
    }
    var marked: [Int: TransitionChange] = [:]
    for counts in transitions {
      let transition = counts.transition
      let source = try graph.addState(fields: ProductionGraph.fields(of: transition.source))
      let target = try graph.addState(fields: ProductionGraph.fields(of: transition.target))
      let index = try graph.addTransition(
        from: source, to: target, mutation: transition.mutation, action: transition.action,
        count: 1)
      if let change = byTransition[transition] { marked[index] = change }
    }
    return (graph, marked)
  }
}
