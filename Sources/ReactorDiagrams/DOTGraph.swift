/// A Graphviz graph as a value: attributes, nodes with synthetic IDs, edges and subgraphs,
/// serialized to DOT text by ``serialized()``.
///
/// Every ID in the output is quoted, the graph is named `G`, every node is named `n0`, `n1`,
/// ... in creation order and has an explicit label, and attributes are written sorted by
/// name, so the same model always gives the same bytes and no label can change the graph's
/// structure.
///
/// ```swift
/// var graph = DOTGraph()
/// graph.attributes["rankdir"] = "LR"
/// let idle = graph.addNode(label: "Idle")
/// let loading = graph.addNode(label: "Loading", attributes: ["shape": "box"])
/// graph.addEdge(from: idle, to: loading, xlabel: "refresh")
/// let svg = try GraphvizRenderer().render(graph, format: .svg)
/// ```
public struct DOTGraph: Sendable, Hashable {
  /// Whether the graph's edges have a direction.
  public enum Kind: Sendable, Hashable {
    /// A `digraph`, with edges written `->`.
    case directed
    /// A `graph`, with edges written `--`.
    case undirected
  }

  /// Whether the graph's edges have a direction.
  public var kind: Kind

  /// Graph attributes such as `rankdir`, `label` or `nodesep`.
  public var attributes: [String: DOTValue]

  /// Default attributes for every node.
  public var nodeAttributes: [String: DOTValue]

  /// Default attributes for every edge.
  public var edgeAttributes: [String: DOTValue]

  /// The nodes, in creation order.
  public private(set) var nodes: [DOTNode] = []

  /// The edges, in creation order.
  public private(set) var edges: [DOTEdge] = []

  /// The top-level subgraphs, in the order they were added.
  public private(set) var subgraphs: [DOTSubgraph] = []

  /// The defaults of each run of nodes, set by ``setNodeDefaults(_:)``.
  ///
  /// The first run's are empty until set. A node's ``DOTNode/run`` indexes this.
  private(set) var nodeRuns: [[String: DOTValue]] = [[:]]

  /// The graph's title.
  public var label: DOTLabel? {
    get { attributes.labelAttribute }
    set { attributes.labelAttribute = newValue }
  }

  /// Creates an empty graph.
  ///
  /// - Parameters:
  ///   - kind: Whether edges have a direction.
  ///   - attributes: Graph attributes.
  ///   - nodeAttributes: Default attributes for every node.
  ///   - edgeAttributes: Default attributes for every edge.
  public init(
    kind: Kind = .directed, attributes: [String: DOTValue] = [:],
    nodeAttributes: [String: DOTValue] = [:], edgeAttributes: [String: DOTValue] = [:]
  ) {
    self.kind = kind
    self.attributes = attributes
    self.nodeAttributes = nodeAttributes
    self.edgeAttributes = edgeAttributes
  }

  /// Adds a node and returns its synthetic identity.
  ///
  /// - Parameters:
  ///   - label: The text shown in the node; it replaces any `label` in `attributes`.
  ///   - attributes: The node's other attributes, such as `shape` or `color`.
  /// - Returns: The new node's ID, for edges and subgraphs of this graph.
  @discardableResult
  public mutating func addNode(
    label: DOTLabel, attributes: [String: DOTValue] = [:]
  ) -> DOTNode.ID {
    let id = DOTNode.ID(index: nodes.count)
    nodes.append(DOTNode(id: id, label: label, attributes: attributes, run: nodeRuns.count - 1))
    return id
  }

  /// Sets defaults for the nodes added from now on, as a DOT `node [...]` statement between
  /// nodes does.
  ///
  /// The nodes added after this call, up to the next one, take `defaults` on top of
  /// ``nodeAttributes`` unless they set an attribute themselves. ``serialized()`` writes them
  /// once, before the first of these nodes, so that thousands of similar nodes do not each
  /// repeat them: that halves the text of a large ``TimelineDiagram`` and the time Graphviz
  /// takes to parse it. As in DOT, an attribute that only a later call sets is empty, which
  /// Graphviz treats as unset, for the nodes added before it.
  ///
  /// ```swift
  /// graph.setNodeDefaults(["shape": "plaintext", "fontsize": "7"])
  /// for tick in ticks { graph.addNode(label: .text(tick.text), attributes: ["pos": tick.pos]) }
  /// graph.setNodeDefaults([:])
  /// ```
  ///
  /// - Parameter defaults: Attributes shared by the nodes added from now on.
  public mutating func setNodeDefaults(_ defaults: [String: DOTValue]) {
    if let last = nodes.last, last.run == nodeRuns.count - 1 {
      nodeRuns.append(defaults)
    } else {
      nodeRuns[nodeRuns.count - 1] = defaults
    }
  }

  /// The defaults that a node takes from ``setNodeDefaults(_:)``, on top of
  /// ``nodeAttributes``.
  ///
  /// - Parameter node: A node of this graph.
  /// - Returns: The defaults in force when the node was added.
  public func nodeDefaults(of node: DOTNode.ID) -> [String: DOTValue] {
    nodeRuns[nodes[node.index].run]
  }

  /// Adds an edge between two nodes of this graph.
  ///
  /// - Parameters:
  ///   - tail: The node the edge starts from.
  ///   - head: The node the edge points to.
  ///   - label: A label that takes part in the layout.
  ///   - xlabel: A label placed after layout; much cheaper for `dot` than `label`.
  ///   - attributes: The edge's other attributes.
  public mutating func addEdge(
    from tail: DOTNode.ID, to head: DOTNode.ID, label: DOTLabel? = nil,
    xlabel: DOTLabel? = nil, attributes: [String: DOTValue] = [:]
  ) {
    precondition(contains(tail) && contains(head), "edge between nodes of another graph")
    edges.append(
      DOTEdge(tail: tail, head: head, label: label, xlabel: xlabel, attributes: attributes))
  }

  /// Adds a subgraph whose nodes (including those of nested subgraphs) belong to this graph.
  ///
  /// - Parameter subgraph: The subgraph to add.
  public mutating func addSubgraph(_ subgraph: DOTSubgraph) {
    precondition(containsAllNodes(of: subgraph), "subgraph with nodes of another graph")
    subgraphs.append(subgraph)
  }

  private func contains(_ node: DOTNode.ID) -> Bool {
    nodes.indices.contains(node.index)
  }

  private func containsAllNodes(of subgraph: DOTSubgraph) -> Bool {
    subgraph.nodes.allSatisfy(contains) && subgraph.subgraphs.allSatisfy(containsAllNodes)
  }
}
