/// An edge of a ``DOTGraph`` between two of its nodes.
public struct DOTEdge: Sendable, Hashable {
  /// The node the edge starts from.
  public let tail: DOTNode.ID

  /// The node the edge points to.
  public let head: DOTNode.ID

  /// The edge's attributes, including `label` and `xlabel` when set.
  public let attributes: [String: DOTValue]

  /// The label placed on the edge, which takes part in the layout.
  public var label: DOTLabel? {
    if case .label(let label) = attributes["label"] { return label }
    return nil
  }

  /// The label placed next to the edge after layout, which keeps `dot` layouts fast.
  public var xlabel: DOTLabel? {
    if case .label(let label) = attributes["xlabel"] { return label }
    return nil
  }

  init(
    tail: DOTNode.ID, head: DOTNode.ID, label: DOTLabel?, xlabel: DOTLabel?,
    attributes: [String: DOTValue]
  ) {
    var attributes = attributes
    if let label { attributes["label"] = .label(label) }
    if let xlabel { attributes["xlabel"] = .label(xlabel) }
    self.tail = tail
    self.head = head
    self.attributes = attributes
  }
}
