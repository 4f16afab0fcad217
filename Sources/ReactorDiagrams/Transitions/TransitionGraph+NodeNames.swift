public import ReactorStateMachines

extension TransitionGraph {
  /// The name ``dotGraph(limit:)`` gives the node of a state: the `<title>` of that node's
  /// group in Graphviz's SVG, which lets a page that embeds the SVG find a state's node.
  ///
  /// - Parameter index: The state's index in ``states``.
  /// - Returns: The DOT node name, such as `n3`.
  public func dotNodeName(ofState index: Int) -> String {
    // dotGraph adds the states' nodes first, in order, and DOTGraph names nodes n0, n1, ...
    // in the order they were added.
    "n\(index)"
  }
}
