/// A transition of a state machine seen through an abstraction: the abstract state before a
/// mutation, the abstract state after it, and the case names of the mutation and of the action
/// behind it.
///
/// The one way transitions are compared across runs that name states and labels differently:
/// coverage matches traces against an exploration with it, a fleet's summaries key their lines
/// by it, production coverage matches production against golden traces with it.
///
/// ```swift
/// let transition = StateTransition(
///   source: "isLoading=false", target: "isLoading=true",
///   mutation: StateTransition.caseName(of: "setLoading(true)"),
///   action: StateTransition.caseName(of: "refresh"))
/// ```
public struct StateTransition: Sendable, Hashable {
  /// The abstract state before the mutation: its fields' text under the abstraction.
  public var source: String

  /// The abstract state after the mutation.
  public var target: String

  /// The mutation's case name.
  public var mutation: String

  /// The action's case name, or `stream name` for a stream's mutation.
  public var action: String

  /// Creates a transition.
  ///
  /// - Parameters:
  ///   - source: The abstract state before the mutation.
  ///   - target: The abstract state after it.
  ///   - mutation: The mutation's case name.
  ///   - action: The action's case name, or `stream name`.
  public init(source: String, target: String, mutation: String, action: String) {
    self.source = source
    self.target = target
    self.mutation = mutation
    self.action = action
  }

  /// A label's case name: the part before its payload, `setTask` for
  /// `setTask(ReactorExamples.TaskItem(…))` and `Foo.bar` for `Foo.bar(1)` (the case of a
  /// nested enum keeps its type, which tells it from another type's `bar`); a stream's
  /// `stream name`, or a label that does not start with a name, as it is.
  ///
  /// - Parameter label: An action's or a mutation's label as a trace records it.
  /// - Returns: The case name.
  public static func caseName(of label: String) -> String {
    if label.hasPrefix("stream ") { return label }
    let name = label.prefix { $0 != "(" }
    return name.isEmpty ? label : String(name)
  }
}
