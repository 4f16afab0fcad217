public import ReactorStateMachines

extension TransitionGraph {
  /// The most characters of a mutation or action label on an edge; the tooltip shows all.
  static let labelWidth = 36

  /// The most fields shown in a node.
  static let fieldLines = 8

  /// Returns the graph as a `dot` diagram, top to bottom.
  ///
  /// Initial states get an arrow from a start dot; the final state is filled yellow with a
  /// double border; the last transition is red. Nodes show one field per line
  /// (`repos: 3 items`), values cut by meaning, with the full text in their tooltip; a node's
  /// SVG id is its state's id (`s3`). Each edge lists the transitions between its two
  /// states, one line each: the mutation and the action behind it, with the count when it
  /// says something (`×3`; `×1` only when merged traces saw transitions differently often),
  /// and the pulses it fired. Transitions of one mutation case and one action case that
  /// differ only in their payloads share a line (`setQuery(…)  ← updateQuery(…) ×5`), and so
  /// do the actions behind one mutation (`setLoading(false)  ← increase ×2, decrease`). With
  /// field rules, a legend says how each field is drawn. Edge labels are laid out as
  /// nodes of their own (`label`), so they never cross a state. `nslimit=1` keeps dense
  /// graphs fast. The same graph always gives the same DOT text.
  ///
  /// Given an `instanceNoun` (`reactors`), a graph merged from several traces ends each
  /// edge's label with how many of them took it (`3 of 7 reactors`): the per-type diagram of
  /// a session, whose traces are the lanes of the reactors of one type.
  ///
  /// - Parameters:
  ///   - limit: The largest graph to draw.
  ///   - instanceNoun: What the merged traces are called, plural; `nil` draws no such count.
  /// - Returns: A graph for ``GraphvizRenderer`` with the `dot` engine.
  /// - Throws: ``TransitionGraphError/tooLarge(states:transitions:limit:)`` beyond `limit`.
  public func dotGraph(
    limit: DiagramSizeLimit = .standard, instanceNoun: String? = nil
  ) throws(TransitionGraphError) -> DOTGraph {
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
      var attributes: [String: DOTValue] = [
        "id": .string(state.id), "tooltip": .string(state.id + "\n" + state.text),
      ]
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
          "id": "start", "shape": "point", "width": "0.15", "style": "filled",
          "fillcolor": "black", "tooltip": "start",
        ])
      for index in initials {
        graph.addEdge(from: start, to: ids[index], attributes: ["tooltip": "initial state"])
      }
    }
    if !abstraction.rules.isEmpty {
      let lines = ["How fields are drawn:"] + abstraction.rules.map(\.legendLine)
      graph.addNode(
        label: .text(lines.joined(separator: "\n")),
        attributes: [
          "id": "legend", "shape": "note", "fillcolor": "#f7f7f7", "color": "gray60",
          "fontsize": "9", "fontcolor": "gray25", "style": "filled",
          "tooltip": "how each field of the state is drawn",
        ])
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
    let showsSingleCounts = traceCount > 1 && Set(transitions.map(\.count)).count > 1
    for pair in order {
      let members = groups[pair]!
      let isLast = lastTransition.map(members.contains) ?? false
      // Plain text, not an HTML label: Graphviz 2.42's HTML parser leaks memory on every
      // render (measured with valgrind), and a plain label keeps a render leak-free.
      var tooltip: [String] = []
      var total = 0
      for index in members {
        let transition = transitions[index]
        var line = "\(transition.mutation) ← \(transition.action) ×\(transition.count)"
        if !transition.events.isEmpty {
          line += " fires " + transition.events.joined(separator: ", ")
        }
        tooltip.append(line)
        total += transition.count
      }
      var label = Self.edgeLines(members.map { transitions[$0] }, showsSingleCounts)
      // dot puts a label right against its edge, and viewers' fonts run a little wider than
      // Graphviz measured (DejaVu Sans 2 %): keep the text off the line, further off a
      // self-loop's outer end. No-break spaces: Graphviz drops ordinary ones at line starts.
      let margin = pair.source == pair.target ? "\u{A0}\u{A0}\u{A0}" : "\u{A0}\u{A0}"
      if let instanceNoun, traceCount > 1 {
        let line = "\(traceCount(taking: members)) of \(traceCount) \(instanceNoun)"
        label.append(line)
        tooltip.append("taken in " + line)
      }
      // In a page of clusters (a session's types), a self-loop's label ends at its cluster's
      // border: Graphviz leaves no margin past it. The same spaces after it keep it inside.
      let trailing = instanceNoun != nil && pair.source == pair.target ? margin : ""
      label = label.map { margin + $0 + trailing }
      var attributes: [String: DOTValue] = [
        "id": .string("t\(members[0])"),
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
        label: .text(label.joined(separator: "\n")), attributes: attributes)
    }
    return graph
  }

  /// A node's lines: `name: value`, at most ``fieldLines`` of them.
  static func nodeLabel(_ state: State) -> String {
    var lines = state.fields.prefix(fieldLines).map(\.line)
    if state.fields.count > fieldLines {
      lines.append("… \(state.fields.count - fieldLines) more fields")
    }
    return lines.isEmpty ? "(any state)" : lines.joined(separator: "\n")
  }

  /// An edge's lines: one per mutation case and fired pulses, with the payload when only one
  /// transition has it and `(…)` when several share the line, and the actions behind it.
  static func edgeLines(_ transitions: [Transition], _ showsSingleCounts: Bool) -> [String] {
    struct Line: Hashable {
      var mutation: String
      var action: String
      var events: [String]
    }
    var lines: [Line: (first: Transition, labels: Set<String>, count: Int)] = [:]
    var order: [Line] = []
    for transition in transitions {
      let key = Line(
        mutation: StateTransition.caseName(of: transition.mutation),
        action: StateTransition.caseName(of: transition.action),
        events: transition.events)
      if lines[key] == nil {
        order.append(key)
        lines[key] = (transition, [], 0)
      }
      lines[key]!.labels.insert(transition.mutation + "\u{0}" + transition.action)
      lines[key]!.count += transition.count
    }
    // One line per mutation and pulses, listing the actions behind it: `setLoading(false)
    // ← increase ×2, decrease`.
    var merged: [(mutation: String, events: [String], actions: [String])] = []
    for key in order {
      let (first, labels, count) = lines[key]!
      var mutation = first.mutation
      var action = first.action
      if labels.count > 1 {
        mutation = key.mutation + (mutation.contains("(") ? "(…)" : "")
        action = key.action + (action.contains("(") ? "(…)" : "")
      }
      mutation = DescriptionText.short(mutation, budget: labelWidth)
      action = DescriptionText.short(action, budget: labelWidth - 10)
      if count > 1 || showsSingleCounts { action += " ×\(count)" }
      if let index = merged.firstIndex(where: {
        $0.mutation == mutation && $0.events == key.events && $0.actions.count < 3
      }) {
        merged[index].actions.append(action)
      } else {
        merged.append((mutation, key.events, [action]))
      }
    }
    return merged.flatMap { line in
      [line.mutation + "  ← " + line.actions.joined(separator: ", ")]
        + line.events.map { "fires " + DescriptionText.short($0, budget: labelWidth) }
    }
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
