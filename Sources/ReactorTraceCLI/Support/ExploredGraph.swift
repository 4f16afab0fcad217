import ReactorDiagrams
import ReactorExploration
import ReactorTracing

/// An exploration as a ``TransitionGraph``, for the transitions renderer.
enum ExploredGraph {
  /// The graph of `exploration`: its states and transitions in order, so that the graph's
  /// `states[i]` and `transitions[i]` are the exploration's.
  static func graph(of exploration: Exploration) throws(TransitionGraphError) -> TransitionGraph {
    var graph = TransitionGraph(abstraction: .wholeState)
    graph.setReactor(exploration.reactor)
    var nodes: [Int] = []
    for (index, state) in exploration.states.enumerated() {
      nodes.append(try graph.addState(.json(state.value), isInitial: index == 0))
    }
    for transition in exploration.transitions {
      try graph.addTransition(
        from: nodes[transition.source], to: nodes[transition.target],
        mutation: transition.mutation, action: exploration.alphabet[transition.action].label)
    }
    return graph
  }

  /// The diagram title: the reactor, what was explored and what stopped it.
  static func title(of exploration: Exploration) -> String {
    "\(exploration.reactor)\nexplored: \(exploration.states.count) states, "
      + "\(exploration.transitions.count) transitions, \(exploration.runCount) runs"
  }
}
