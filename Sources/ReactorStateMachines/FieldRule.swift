/// A field and how it is drawn, with the reason the inference gave.
public struct FieldRule: Sendable, Hashable {
  /// The top-level field's name.
  public var name: String

  /// How it is drawn.
  public var abstraction: FieldAbstraction

  /// Why, for the legend: `7 values`, `always false`, `chosen`.
  public var reason: String

  /// Creates a rule.
  ///
  /// - Parameters:
  ///   - name: The top-level field's name.
  ///   - abstraction: How it is drawn.
  ///   - reason: Why, for the legend; empty for none.
  public init(name: String, abstraction: FieldAbstraction, reason: String = "") {
    self.name = name
    self.abstraction = abstraction
    self.reason = reason
  }

  /// `query: empty / non-empty (7 values)`.
  public var legendLine: String {
    name + ": " + abstraction.summary + (reason.isEmpty ? "" : " (" + reason + ")")
  }
}
