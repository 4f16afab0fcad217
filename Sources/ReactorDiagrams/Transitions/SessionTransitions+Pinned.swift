public import ReactorStateMachines

extension SessionTransitions {
  /// Space between a machine and its box, and between two boxes, in points.
  static let boxMargin = 8.0

  /// The machines as one page whose every position is already set.
  ///
  /// Each machine is laid out by `dot` on its own, titled, and boxed, the boxes side by side,
  /// tops aligned. Render it with the `nop2` engine (its `layout` attribute says so, for
  /// `dot -Tsvg page.dot`).
  ///
  /// A graph `dot` lays out alone has a box that holds every label it drew; a cluster's box
  /// does not always (see ``dotGraph(limit:)``). So every edge label of a machine stays
  /// inside the machine's box, wherever the edge's spline took it.
  ///
  /// - Parameters:
  ///   - limit: The largest machine to draw.
  ///   - textMeasurement: How labels are measured while each machine is laid out; render the
  ///     page with the same.
  /// - Returns: A graph for ``GraphvizRenderer`` with the `nop2` engine.
  /// - Throws: ``TransitionGraphError/tooLarge(states:transitions:limit:)`` beyond `limit`,
  ///   ``GraphvizError`` when Graphviz cannot lay a machine out.
  public func pinnedGraph(
    limit: DiagramSizeLimit = .standard, textMeasurement: TextMeasurement = .shaped
  ) throws -> DOTGraph {
    let renderer = GraphvizRenderer(textMeasurement: textMeasurement)
    var laidOut: [(drawn: DOTGraph, layout: MachineLayout, title: String)] = []
    for machine in machines {
      var drawn = try machine.graph.dotGraph(limit: limit, instanceNoun: "reactors")
      let title = Self.title(of: machine)
      drawn.label = .text(title)
      drawn.attributes["labelloc"] = "t"
      let layout = try MachineLayout(
        json: renderer.render(drawn, engine: .dot, format: .json))
      laidOut.append((drawn, layout, title))
    }
    let margin = Self.boxMargin
    let tallest = laidOut.map(\.layout.height).max() ?? 0
    let top = margin + tallest + 2 * margin
    var page = DOTGraph(
      attributes: laidOut.first?.drawn.attributes.filter {
        $0.key != "label" && $0.key != "tooltip" && $0.key != "labelloc"
      } ?? [:])
    page.attributes["layout"] = "nop2"
    var left = margin
    for (index, machine) in laidOut.enumerated() {
      let bottom = top - machine.layout.height - 2 * margin
      let dx = left + margin
      let dy = bottom + margin
      let placed = Self.placed(machine.drawn, machine.layout, dx: dx, dy: dy)
      var box: [String: DOTValue] = [
        "bb": .string(
          [left, bottom, left + machine.layout.width + 2 * margin, top]
            .map(MachineLayout.format).joined(separator: ","))
      ]
      if let title = machine.layout.title {
        box["lp"] = .string(
          MachineLayout.format(title.x + dx) + "," + MachineLayout.format(title.y + dy))
      }
      page.addCluster(
        of: placed, label: .text(machine.title), idPrefix: "t\(index + 1)-", attributes: box)
      left += machine.layout.width + 3 * margin
    }
    page.attributes["bb"] = .string(
      "0,0," + MachineLayout.format(left) + "," + MachineLayout.format(top + margin))
    return page
  }

  /// `graph` without its title, every node and edge at the place `layout` gives it, moved by
  /// `dx`, `dy`.
  private static func placed(
    _ graph: DOTGraph, _ layout: MachineLayout, dx: Double, dy: Double
  ) -> DOTGraph {
    var placed = DOTGraph(
      kind: graph.kind, nodeAttributes: graph.nodeAttributes,
      edgeAttributes: graph.edgeAttributes)
    var ids: [DOTNode.ID: DOTNode.ID] = [:]
    for node in graph.nodes {
      var attributes = graph.nodeDefaults(of: node.id)
      attributes.merge(node.attributes) { $1 }
      if let point = layout.nodes[node.id.name] {
        attributes["pos"] = .string(
          MachineLayout.format(point.x + dx) + "," + MachineLayout.format(point.y + dy))
      }
      ids[node.id] = placed.addNode(label: node.label, attributes: attributes)
    }
    for edge in graph.edges {
      guard let tail = ids[edge.tail], let head = ids[edge.head] else { continue }
      var attributes = edge.attributes
      if let drawn = layout.edges[edge.tail.name + " " + edge.head.name] {
        attributes["pos"] = .string(MachineLayout.moved(drawn.spline, dx: dx, dy: dy))
        if let label = drawn.label {
          attributes["lp"] = .string(
            MachineLayout.format(label.x + dx) + "," + MachineLayout.format(label.y + dy))
        }
      }
      placed.addEdge(from: tail, to: head, attributes: attributes)
    }
    return placed
  }
}
