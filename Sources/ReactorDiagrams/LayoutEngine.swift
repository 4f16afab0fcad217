/// A Graphviz layout engine, named as for `dot -K`.
///
/// Any installed plugin can be named with ``init(rawValue:)``; an unknown name makes
/// rendering fail with Graphviz's list of the available engines.
public struct LayoutEngine: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The engine's name, such as `dot`.
  public var rawValue: String

  /// Creates an engine from its Graphviz name.
  ///
  /// - Parameter rawValue: The name, as accepted by `dot -K`.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// The engine's name.
  public var description: String { rawValue }

  /// Hierarchical layers; the default for directed graphs.
  public static let dot = LayoutEngine(rawValue: "dot")

  /// Spring model (stress majorization); slow beyond a few hundred nodes.
  public static let neato = LayoutEngine(rawValue: "neato")

  /// Force-directed placement.
  public static let fdp = LayoutEngine(rawValue: "fdp")

  /// Multiscale force-directed placement for large graphs.
  public static let sfdp = LayoutEngine(rawValue: "sfdp")

  /// Circular layout.
  public static let circo = LayoutEngine(rawValue: "circo")

  /// Radial layout.
  public static let twopi = LayoutEngine(rawValue: "twopi")

  /// Nested boxes for clustered graphs.
  public static let osage = LayoutEngine(rawValue: "osage")

  /// Squarified tree map.
  public static let patchwork = LayoutEngine(rawValue: "patchwork")

  /// No layout: every node carries its position in `pos`; edges are routed.
  public static let nop = LayoutEngine(rawValue: "nop")

  /// No layout: nodes and edges carry their positions in `pos`.
  public static let nop2 = LayoutEngine(rawValue: "nop2")

  /// Every engine Graphviz 2.42 ships, in the order above.
  public static let all: [LayoutEngine] = [
    .dot, .neato, .fdp, .sfdp, .circo, .twopi, .osage, .patchwork, .nop, .nop2,
  ]
}
