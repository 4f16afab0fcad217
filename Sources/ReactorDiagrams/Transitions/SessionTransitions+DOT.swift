public import ReactorStateMachines
import ReactorTracing

extension SessionTransitions {
  /// The one machine of traces, each lane its file's only reactor, that is drawn as itself;
  /// `nil` when the machines are drawn as a page of clusters.
  public var lone: TransitionGraph? {
    guard machines.count == 1, machines[0].instanceNoun == nil else { return nil }
    return machines[0].graph
  }

  /// The diagram `render transitions` draws and the engine that lays it out: a lone
  /// machine of traces as itself (``TransitionGraph/dotGraph(limit:instanceNoun:)``) with
  /// `engine`; otherwise one page of clusters, each titled by its type and how many reactors
  /// it merges (`TaskCellReactor · 7 reactors merged`), each of its edges ending with how
  /// many of them took it (`2 of 7 reactors`): with `dot`, each machine laid out alone and
  /// the boxes pinned side by side (``pinnedGraph(limit:textMeasurement:)``, drawn by
  /// `nop2`), since `dot`'s own clusters can end a long edge's label past their border; with
  /// another engine, ``dotGraph(limit:)``.
  ///
  /// - Parameters:
  ///   - engine: The layout engine asked for.
  ///   - limit: The largest machine to draw.
  /// - Returns: The graph and the engine to render it with.
  /// - Throws: ``TransitionGraphError/tooLarge(states:transitions:limit:)`` beyond `limit`,
  ///   ``GraphvizError`` when Graphviz cannot lay a machine out.
  public func diagram(
    engine: LayoutEngine, limit: DiagramSizeLimit = .standard
  ) throws -> (graph: DOTGraph, engine: LayoutEngine) {
    if let lone { return (try lone.dotGraph(limit: limit), engine) }
    if engine == .dot { return (try pinnedGraph(limit: limit), .nop2) }
    return (try dotGraph(limit: limit), engine)
  }

  /// The machines as a Mermaid `stateDiagram-v2`: a lone machine of traces as itself
  /// (``TransitionGraph/mermaid(limit:)``); otherwise each machine a composite state titled as
  /// its cluster on the DOT page (`TaskCellReactor · 7 reactors merged`), its states' ids
  /// prefixed by the machine's (`t2_s3`), each transition ending with how many of the
  /// reactors took it (`2 of 7 reactors`), each machine's final state styled.
  ///
  /// ```
  /// stateDiagram-v2
  ///     state "TaskCellReactor · 7 reactors merged" as t1 {
  ///         state "isDone=false" as t1_s0
  ///         [*] --> t1_s0
  ///         t1_s0 --> t1_s1: setDone(true)  ← toggle, 2 of 7 reactors
  ///     }
  /// ```
  ///
  /// - Parameter limit: The largest machine to draw.
  /// - Returns: The diagram's text, ending in a newline.
  /// - Throws: ``TransitionGraphError/tooLarge(states:transitions:limit:)`` beyond `limit`.
  public func mermaid(limit: DiagramSizeLimit = .standard) throws -> String {
    if let lone { return try lone.mermaid(limit: limit) }
    var lines = ["stateDiagram-v2"]
    var finals: [String] = []
    for (index, machine) in machines.enumerated() {
      try machine.graph.check(limit)
      let id = "t\(index + 1)"
      lines.append(
        "    state \"\(TransitionGraph.mermaidEscaped(Self.plainTitle(of: machine)))\" as \(id) {")
      lines += machine.graph.mermaidBody(
        idPrefix: id + "_", indent: "        ", instanceNoun: machine.instanceNoun)
      lines.append("    }")
      if let final = machine.graph.finalState {
        finals.append(id + "_" + machine.graph.states[final].id)
      }
    }
    if !finals.isEmpty {
      lines.append("    classDef final fill:#fff3b0,stroke:#b58900,stroke-width:2px")
      lines.append("    class \(finals.joined(separator: ",")) final")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// What was drawn, for a report: `5 states, 7 transitions from 12 mutations` for a lone
  /// machine, else `TaskEditReactor: 7 states, 10 transitions` per machine, joined by `; `.
  public var summary: String {
    if let lone {
      return "\(lone.states.count) states, \(lone.transitions.count) transitions from "
        + "\(lone.mutationCount) mutations"
    }
    return machines.map {
      "\(ReactorIntroduction.shortTypeName($0.type)): \($0.graph.states.count) states, "
        + "\($0.graph.transitions.count) transitions"
    }.joined(separator: "; ")
  }

  /// The machines as one page of clusters for a layout engine to place: ``pinnedGraph(limit:textMeasurement:)``
  /// is the page `render transitions` draws with `dot`.
  ///
  /// `dot` fixes a cluster's box before an edge's label follows the edge's spline, so on this
  /// page a long edge's label can end past its cluster's border; other engines lay the page
  /// out as they do.
  ///
  /// - Parameter limit: The largest machine to draw.
  /// - Returns: A graph for ``GraphvizRenderer``.
  /// - Throws: ``TransitionGraphError/tooLarge(states:transitions:limit:)`` beyond `limit`.
  public func dotGraph(limit: DiagramSizeLimit = .standard) throws(TransitionGraphError)
    -> DOTGraph
  {
    var page: DOTGraph?
    for (index, machine) in machines.enumerated() {
      let drawn = try machine.graph.dotGraph(limit: limit, instanceNoun: "reactors")
      if page == nil {
        page = DOTGraph(
          attributes: drawn.attributes.filter { $0.key != "label" && $0.key != "tooltip" },
          nodeAttributes: [:], edgeAttributes: [:])
        page?.attributes["compound"] = "true"
      }
      page?.addCluster(
        of: drawn, label: .text(Self.title(of: machine)), idPrefix: "t\(index + 1)-")
    }
    return page ?? DOTGraph()
  }

  /// A machine's cluster title: its type and how many reactors it merges.
  static func title(of machine: Machine) -> String {
    // No-break spaces keep a title that sets the cluster's width off its border: viewers'
    // fonts run a little wider than Graphviz measured.
    "\u{A0}\u{A0}" + plainTitle(of: machine) + "\u{A0}\u{A0}"
  }

  /// A machine's type and how many reactors it merges: `TaskCellReactor · 7 reactors merged`.
  static func plainTitle(of machine: Machine) -> String {
    "\(ReactorIntroduction.shortTypeName(machine.type)) · \(machine.reactorCount) reactor"
      + (machine.reactorCount == 1 ? "" : "s") + " merged"
  }
}
