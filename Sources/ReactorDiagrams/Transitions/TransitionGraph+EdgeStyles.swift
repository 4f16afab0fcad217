public import ReactorStateMachines

extension TransitionGraph {
  /// Returns the graph as a `dot` diagram, like ``dotGraph(limit:)``, with some
  /// transitions and states drawn dashed and grey: for a coverage diagram, what no trace
  /// exercised.
  ///
  /// An edge (the transitions between two states share one) is dashed when all of its
  /// transitions are; a node when its state is.
  ///
  /// - Parameters:
  ///   - dashedTransitions: Indices in ``transitions`` to draw dashed.
  ///   - dashedStates: Indices in ``states`` to draw dashed.
  ///   - limit: The largest graph to draw.
  /// - Returns: A graph for ``GraphvizRenderer`` with the `dot` engine.
  /// - Throws: ``TransitionGraphError/tooLarge(states:transitions:limit:)`` beyond `limit`.
  public func dotGraph(
    dashedTransitions: Set<Int>, dashedStates: Set<Int>, limit: DiagramSizeLimit = .standard
  ) throws(TransitionGraphError) -> DOTGraph {
    let plain = try dotGraph(limit: limit)
    var solidPairs: Set<[Int]> = []
    for (index, transition) in transitions.enumerated() where !dashedTransitions.contains(index) {
      solidPairs.insert([transition.source, transition.target])
    }
    var styled = DOTGraph(
      kind: plain.kind, attributes: plain.attributes, nodeAttributes: plain.nodeAttributes,
      edgeAttributes: plain.edgeAttributes)
    // The state nodes come first, in the order of `states`.
    for node in plain.nodes {
      var attributes = node.attributes
      if node.id.index < states.count, dashedStates.contains(node.id.index) {
        attributes["style"] = "rounded,filled,dashed"
        attributes["color"] = "#888888"
        attributes["fontcolor"] = "#666666"
      }
      styled.addNode(label: node.label, attributes: attributes)
    }
    for edge in plain.edges {
      var attributes = edge.attributes
      let pair = [edge.tail.index, edge.head.index]
      if edge.tail.index < states.count, edge.head.index < states.count,
        !solidPairs.contains(pair)
      {
        attributes["style"] = "dashed"
        attributes["color"] = "#888888"
        attributes["fontcolor"] = "#666666"
      }
      styled.addEdge(
        from: DOTNode.ID(index: edge.tail.index), to: DOTNode.ID(index: edge.head.index),
        attributes: attributes)
    }
    return styled
  }
}
