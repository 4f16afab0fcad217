public import ReactorStateMachines

extension TransitionGraph {
  /// A transition whose share of all transitions is below this is drawn as rare: 1 %.
  public static let rareShare = 0.01

  /// The diagram of how often each transition happens, such as production's
  /// (`ProductionGraph`): ``dotGraph(limit:)`` with each edge's width by its transitions'
  /// total count (1 to 6 points, by the square root of its share of the most frequent edge's
  /// count, so that the common paths stand out), rare edges (below ``rareShare`` of all
  /// transitions) orange, and `title` above a line that says so.
  ///
  /// - Parameters:
  ///   - title: What the graph shows, one or more lines.
  ///   - limit: The largest graph to draw.
  /// - Returns: A graph for the `dot` engine.
  /// - Throws: ``TransitionGraphError/tooLarge(states:transitions:limit:)`` beyond `limit`.
  public func frequencyDotGraph(
    title: String, limit: DiagramSizeLimit = .standard
  ) throws(TransitionGraphError) -> DOTGraph {
    let plain = try dotGraph(limit: limit)
    var totals: [[Int]: Int] = [:]
    for transition in transitions {
      totals[[transition.source, transition.target], default: 0] &+= transition.count
    }
    let all = max(1, transitions.reduce(0) { $0 &+ $1.count })
    let largest = max(1, totals.values.max() ?? 1)
    var styled = DOTGraph(
      kind: plain.kind, attributes: plain.attributes, nodeAttributes: plain.nodeAttributes,
      edgeAttributes: plain.edgeAttributes)
    // The state nodes come first, in the order of `states`.
    var positions: [DOTNode.ID: Int] = [:]
    var ids: [DOTNode.ID] = []
    for (position, node) in plain.nodes.enumerated() {
      positions[node.id] = position
      ids.append(styled.addNode(label: node.label, attributes: node.attributes))
    }
    for edge in plain.edges {
      var attributes = edge.attributes
      let tail = positions[edge.tail]!
      let head = positions[edge.head]!
      if tail < states.count, head < states.count, let total = totals[[tail, head]] {
        let width = 1 + 5 * (Double(total) / Double(largest)).squareRoot()
        attributes["penwidth"] = .string(Self.oneDecimal(width))
        attributes["arrowsize"] = .string(Self.oneDecimal(min(1.4, 0.5 + width / 8)))
        if Double(total) / Double(all) < Self.rareShare {
          attributes["color"] = "#e66101"
          attributes["fontcolor"] = "#b34700"
        } else {
          attributes["color"] = "#2b5c8a"
        }
      }
      styled.addEdge(from: ids[tail], to: ids[head], attributes: attributes)
    }
    styled.label = .text(
      title + "\nedge width: how often; orange: under 1% of all transitions")
    return styled
  }

  /// `2.5`: a width for Graphviz, with one decimal.
  private static func oneDecimal(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}
