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

  /// A lone machine of traces as a Mermaid `stateDiagram-v2`.
  ///
  /// - Parameter limit: The largest graph to draw.
  /// - Returns: The diagram's text.
  /// - Throws: ``SessionTransitionsError/clustersInMermaid`` for machines drawn as clusters,
  ///   ``TransitionGraphError/tooLarge(states:transitions:limit:)`` beyond `limit`.
  public func mermaid(limit: DiagramSizeLimit = .standard) throws -> String {
    guard let lone else { throw SessionTransitionsError.clustersInMermaid }
    return try lone.mermaid(limit: limit)
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
    let title =
      "\(ReactorIntroduction.shortTypeName(machine.type)) · \(machine.reactorCount) reactor"
      + (machine.reactorCount == 1 ? "" : "s") + " merged"
    // No-break spaces keep a title that sets the cluster's width off its border: viewers'
    // fonts run a little wider than Graphviz measured.
    return "\u{A0}\u{A0}" + title + "\u{A0}\u{A0}"
  }
}
