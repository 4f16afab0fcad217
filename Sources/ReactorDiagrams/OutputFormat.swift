/// A Graphviz output format, named as for `dot -T`.
///
/// Any installed plugin can be named with ``init(rawValue:)``, including a specific renderer
/// such as `png:cairo`; an unknown name makes rendering fail with Graphviz's list of formats.
public struct OutputFormat: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The format's name, such as `svg`.
  public var rawValue: String

  /// Creates a format from its Graphviz name.
  ///
  /// - Parameter rawValue: The name, as accepted by `dot -T`.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// The format's name.
  public var description: String { rawValue }

  /// DOT text with layout attributes (positions, sizes) added.
  public static let dot = OutputFormat(rawValue: "dot")

  /// Canonical DOT text without layout attributes.
  public static let canon = OutputFormat(rawValue: "canon")

  /// DOT text with extended drawing instructions.
  public static let xdot = OutputFormat(rawValue: "xdot")

  /// Graphviz's simple line-based text format.
  public static let plain = OutputFormat(rawValue: "plain")

  /// The laid-out graph as JSON.
  public static let json = OutputFormat(rawValue: "json")

  /// Scalable Vector Graphics; the fastest format and byte-reproducible.
  public static let svg = OutputFormat(rawValue: "svg")

  /// A PNG bitmap; scaled down past 32,767 pixels in either direction.
  public static let png = OutputFormat(rawValue: "png")

  /// A PDF document; it embeds its creation date, so it is not byte-reproducible.
  public static let pdf = OutputFormat(rawValue: "pdf")
}
