extension TransitionGraph {
  /// The most characters of a field shown in a node; the tooltip shows all of them.
  static let fieldWidth = 40

  /// The most fields shown in a node.
  static let fieldLines = 6

  /// Returns the graph as a `dot` diagram, top to bottom.
  ///
  /// Initial states get an arrow from a start dot; the final state is filled yellow with a
  /// double border; the last transition is red. Nodes show one field per line, cut to 40
  /// characters, with the full text in their tooltip. Each edge lists the transitions between
  /// its two states, one line each: the mutation, the action behind it and the count. `nslimit=1` keeps dense graphs fast. The same graph always gives the
  /// same DOT text.
  ///
  /// - Parameter limit: The largest graph to draw.
  /// - Returns: A graph for ``GraphvizRenderer`` with the `dot` engine.
  /// - Throws: ``TransitionGraphError/tooLarge(states:transitions:limit:)`` beyond `limit`.
  public func dotGraph(limit: DiagramSizeLimit = .standard) throws(TransitionGraphError)
    -> DOTGraph
  {
    try check(limit)
    var title = reactor ?? "reactor"
    title += "\n\(traceCount) trace\(traceCount == 1 ? "" : "s"), "
    title += "\(mutationCount) mutation\(mutationCount == 1 ? "" : "s"), "
    title += "\(states.count) state\(states.count == 1 ? "" : "s")"
    var graph = DOTGraph(
      attributes: [
        "rankdir": "TB", "nslimit": "1", "nslimit1": "1", "labelloc": "t", "fontsize": "12",
        "fontname": "Helvetica", "nodesep": "0.5", "ranksep": "0.55",
        "tooltip": .string(reactor ?? "reactor"),
      ],
      nodeAttributes: [
        "shape": "box", "style": "rounded,filled", "fillcolor": "white", "fontsize": "11",
        "fontname": "Helvetica", "margin": "0.15,0.06",
      ],
      edgeAttributes: ["fontname": "Helvetica", "fontsize": "10", "arrowsize": "0.7"]
    )
    graph.label = .text(title)
    var ids: [DOTNode.ID] = []
    for (index, state) in states.enumerated() {
      var attributes: [String: DOTValue] = ["tooltip": .string(state.id + "\n" + state.text)]
      if state.isInitial { attributes["penwidth"] = "2" }
      if index == finalState {
        attributes["fillcolor"] = "#fff3b0"
        attributes["peripheries"] = "2"
      }
      ids.append(graph.addNode(label: .text(Self.nodeLabel(state)), attributes: attributes))
    }
    let initials = states.indices.filter { states[$0].isInitial }
    if !initials.isEmpty {
      let start = graph.addNode(
        label: "",
        attributes: [
          "shape": "point", "width": "0.15", "style": "filled", "fillcolor": "black",
          "tooltip": "start",
        ])
      for index in initials {
        graph.addEdge(from: start, to: ids[index], attributes: ["tooltip": "initial state"])
      }
    }
    // Parallel transitions share one edge with a line each: dot draws several labelled
    // self-loops or parallel edges with overlapping labels.
    var groups: [Pair: [Int]] = [:]
    var order: [Pair] = []
    for (index, transition) in transitions.enumerated() {
      let pair = Pair(source: transition.source, target: transition.target)
      if groups[pair] == nil { order.append(pair) }
      groups[pair, default: []].append(index)
    }
    for pair in order {
      let members = groups[pair]!
      let isLast = lastTransition.map(members.contains) ?? false
      // Plain text, not an HTML label: Graphviz 2.42's HTML parser leaks memory on every
      // render (measured with valgrind), and a plain label keeps a render leak-free.
      var lines: [String] = []
      var tooltip: [String] = []
      var total = 0
      for index in members {
        let transition = transitions[index]
        lines.append(
          transition.mutation.singleLine.truncated(to: Self.fieldWidth) + "  ← "
            + transition.action.singleLine.truncated(to: 30) + " ×\(transition.count)")
        tooltip.append("\(transition.mutation) ← \(transition.action) ×\(transition.count)")
        total += transition.count
      }
      var attributes: [String: DOTValue] = [
        "tooltip": .string(tooltip.joined(separator: "\n")),
        "penwidth": .string(Self.penWidth(count: total)),
      ]
      if isLast {
        attributes["color"] = "#d62728"
        attributes["fontcolor"] = "#d62728"
        attributes["penwidth"] = "2.5"
      }
      graph.addEdge(
        from: ids[pair.source], to: ids[pair.target],
        label: .text(lines.joined(separator: "\n")), attributes: attributes)
    }
    return graph
  }

  static func nodeLabel(_ state: State) -> String {
    var lines = state.fields.prefix(fieldLines).map { $0.text.singleLine.truncated(to: fieldWidth) }
    if state.fields.count > fieldLines {
      lines.append("… \(state.fields.count - fieldLines) more")
    }
    return lines.joined(separator: "\n")
  }

  private struct Pair: Hashable {
    var source: Int
    var target: Int
  }

  private static func penWidth(count: Int) -> String {
    switch count {
    case ..<2: "1"
    case ..<5: "1.5"
    case ..<20: "2"
    default: "3"
    }
  }
}
