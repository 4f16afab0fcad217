/// A node of a ``DOTGraph``, named by a synthetic ID and always carrying an explicit label.
public struct DOTNode: Sendable, Hashable {
  /// A node's synthetic identity, handed out by ``DOTGraph/addNode(label:attributes:)``.
  public struct ID: Sendable, Hashable {
    let index: Int

    /// The node's name in DOT text and in the `<title>` of its SVG group, such as `n0`.
    public var name: String { "n\(index)" }
  }

  /// The node's identity within its graph.
  public let id: ID

  /// The node's own attributes, including its `label`; see also
  /// ``DOTGraph/nodeDefaults(of:)``.
  public let attributes: [String: DOTValue]

  /// The run of nodes it belongs to: an index into the graph's node defaults.
  let run: Int

  /// The text shown in the node.
  public var label: DOTLabel {
    if case .label(let label) = attributes["label"] { return label }
    return .text("")
  }

  init(id: ID, label: DOTLabel, attributes: [String: DOTValue], run: Int) {
    var attributes = attributes
    attributes["label"] = .label(label)
    self.id = id
    self.attributes = attributes
    self.run = run
  }
}
