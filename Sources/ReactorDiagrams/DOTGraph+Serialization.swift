extension DOTGraph {
  /// Returns the graph as DOT text, byte for byte the same for equal graphs.
  ///
  /// The text declares graph, node and edge defaults first, then the nodes (each run of
  /// nodes after a `node [...]` statement with its defaults, see
  /// ``setNodeDefaults(_:)``), the subgraphs (listing their member nodes) and the edges, each
  /// with its attributes sorted by name.
  ///
  /// - Returns: DOT text ready for ``GraphvizRenderer/render(dot:engine:format:)`` or `dot`.
  public func serialized() -> String {
    var writer = DOTWriter()
    writer.bytes.reserveCapacity(64 + 160 * (nodes.count + edges.count))
    writer.line(kind == .directed ? "digraph \"G\" {" : "graph \"G\" {")
    writer.indent += 1
    writer.defaults("graph", attributes)
    writer.defaults("node", nodeAttributes)
    writer.defaults("edge", edgeAttributes)
    var run: Int?
    for node in nodes {
      if node.run != run {
        // The new run's defaults, and the previous run's put back where the new one has none.
        var defaults = nodeRuns[node.run]
        let previous = run.map { nodeRuns[$0] } ?? [:]
        for key in previous.keys where defaults[key] == nil {
          defaults[key] = nodeAttributes[key] ?? ""
        }
        writer.defaults("node", defaults)
        run = node.run
      }
      writer.statement(named: node.id.name, node.attributes)
    }
    var subgraphCount = 0
    for subgraph in subgraphs {
      writer.write(subgraph, count: &subgraphCount)
    }
    let connector = kind == .directed ? " -> " : " -- "
    for edge in edges {
      writer.statement(from: edge.tail.name, connector, to: edge.head.name, edge.attributes)
    }
    writer.indent -= 1
    writer.line("}")
    return writer.text
  }
}
