/// A group of nodes inside a ``DOTGraph``: a cluster drawn as a box, or a plain subgraph
/// for attributes such as `rank=same`.
///
/// Subgraph names are synthesized when the graph is serialized (`cluster_0`, `subgraph_1`).
///
/// ```swift
/// var lane = DOTSubgraph(isCluster: true, label: "CounterReactor")
/// lane.nodes = [idle, loading]
/// graph.addSubgraph(lane)
/// ```
public struct DOTSubgraph: Sendable, Hashable {
  /// Whether Graphviz draws the subgraph as a cluster (a box around its nodes).
  public var isCluster: Bool

  /// The subgraph's graph attributes, such as `label`, `style`, `color` or `rank`.
  public var attributes: [String: DOTValue]

  /// The nodes that belong to the subgraph, declared in the enclosing graph.
  public var nodes: [DOTNode.ID]

  /// Subgraphs nested inside this one.
  public var subgraphs: [DOTSubgraph]

  /// The subgraph's title; shown for clusters only.
  public var label: DOTLabel? {
    get { attributes.labelAttribute }
    set { attributes.labelAttribute = newValue }
  }

  /// Creates a subgraph.
  ///
  /// - Parameters:
  ///   - isCluster: Whether to draw a box around the nodes.
  ///   - label: The title shown for a cluster.
  ///   - attributes: Graph attributes of the subgraph.
  ///   - nodes: Member nodes, created earlier with ``DOTGraph/addNode(label:attributes:)``.
  ///   - subgraphs: Nested subgraphs.
  public init(
    isCluster: Bool = true, label: DOTLabel? = nil, attributes: [String: DOTValue] = [:],
    nodes: [DOTNode.ID] = [], subgraphs: [DOTSubgraph] = []
  ) {
    self.isCluster = isCluster
    self.attributes = attributes
    self.nodes = nodes
    self.subgraphs = subgraphs
    if let label { self.label = label }
  }
}
