extension DOTGraph {
  /// Copies every node, edge and subgraph of `other` into this graph, inside one cluster.
  ///
  /// Node defaults of `other` become each node's own attributes, so the copy draws as the
  /// original did; `id` attributes (SVG ids) get `idPrefix` so that two copies stay apart.
  ///
  /// - Parameters:
  ///   - other: The graph to copy.
  ///   - label: The cluster's title.
  ///   - idPrefix: Put before each copied `id`.
  ///   - clusterAttributes: More attributes of the cluster (its pinned `bb` and title position `lp`
  ///     for the `nop2` engine), over the defaults.
  public mutating func addCluster(
    of other: DOTGraph, label: DOTLabel, idPrefix: String,
    attributes clusterAttributes: [String: DOTValue] = [:]
  ) {
    var mapped: [DOTNode.ID: DOTNode.ID] = [:]
    for node in other.nodes {
      var attributes = other.nodeAttributes
      attributes.merge(other.nodeDefaults(of: node.id)) { $1 }
      attributes.merge(node.attributes) { $1 }
      if case .string(let id)? = attributes["id"] { attributes["id"] = .string(idPrefix + id) }
      mapped[node.id] = addNode(label: node.label, attributes: attributes)
    }
    for edge in other.edges {
      guard let tail = mapped[edge.tail], let head = mapped[edge.head] else { continue }
      var attributes = other.edgeAttributes
      attributes.merge(edge.attributes) { $1 }
      if case .string(let id)? = attributes["id"] { attributes["id"] = .string(idPrefix + id) }
      addEdge(from: tail, to: head, attributes: attributes)
    }
    func remap(_ subgraph: DOTSubgraph) -> DOTSubgraph {
      DOTSubgraph(
        isCluster: subgraph.isCluster, attributes: subgraph.attributes,
        nodes: subgraph.nodes.compactMap { mapped[$0] }, subgraphs: subgraph.subgraphs.map(remap))
    }
    addSubgraph(
      DOTSubgraph(
        isCluster: true, label: label,
        attributes: ["style": "rounded", "color": "gray60", "fontsize": "12"].merging(
          clusterAttributes
        ) {
          $1
        },
        nodes: other.nodes.compactMap { mapped[$0.id] },
        subgraphs: other.subgraphs.map(remap)))
  }
}
