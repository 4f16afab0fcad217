/// The largest graph a diagram lays out; beyond it, building the diagram fails quickly
/// instead of laying out for minutes.
///
/// `dot` takes seconds on a dense 200-state machine and minutes beyond; a graph over the
/// limit throws ``TransitionGraphError/tooLarge(states:transitions:limit:)``.
public struct DiagramSizeLimit: Sendable, Hashable {
  /// The most nodes.
  public var maximumNodes: Int

  /// The most edges.
  public var maximumEdges: Int

  /// 300 nodes and 1,000 edges.
  public static let standard = DiagramSizeLimit(maximumNodes: 300, maximumEdges: 1_000)

  /// No limit.
  public static let unlimited = DiagramSizeLimit(maximumNodes: .max, maximumEdges: .max)

  /// Creates a limit.
  ///
  /// - Parameters:
  ///   - maximumNodes: The most nodes.
  ///   - maximumEdges: The most edges.
  public init(maximumNodes: Int, maximumEdges: Int) {
    self.maximumNodes = maximumNodes
    self.maximumEdges = maximumEdges
  }
}
