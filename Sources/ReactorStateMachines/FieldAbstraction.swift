public import ReactorTracing

/// How one top-level field of a state shows in a node of a ``TransitionGraph``: as its
/// value, as one of a few classes of values, or not at all.
///
/// ``StateAbstraction/inferred(fromTracesAt:overrides:distinctValueLimit:)`` picks one per
/// field from what the field holds; a caller can override any of them.
///
/// ```swift
/// let abstraction = try StateAbstraction.inferred(
///   fromTracesAt: ["search.trace.jsonl"], overrides: ["repos": .count])
/// ```
public enum FieldAbstraction: String, CaseIterable, Sendable, Hashable {
  /// The value as it is: `isLoading: true`, `value: 2`.
  case value
  /// An enum's case without its payload: `phase: loading`.
  case caseName = "case"
  /// `nil` or `non-nil`.
  case presence = "nil"
  /// `empty` or `non-empty`, for strings and collections.
  case emptiness = "empty"
  /// A collection's number of items: `repos: 3 items`.
  case count
  /// Left out of the node.
  case omitted = "omit"
  /// A `@Pulse`: left out of the node and drawn as an event on the transitions that fired it.
  case event

  /// What the legend says about a field drawn this way.
  public var summary: String {
    switch self {
    case .value: "as is"
    case .caseName: "case only"
    case .presence: "nil / non-nil"
    case .emptiness: "empty / non-empty"
    case .count: "item count"
    case .omitted: "left out"
    case .event: "pulse, drawn on the edges that fire it"
    }
  }

  /// Whether the field is part of a node's identity.
  public var isShownInNodes: Bool {
    self != .omitted && self != .event
  }

  /// The text a field's value shows as.
  ///
  /// - Parameter value: The field's value, or `nil` when the state has no such member.
  /// - Returns: Short text such as `nil`, `3 items` or `"reactor"`.
  public func text(of value: JSONValue?) -> String {
    switch self {
    case .value, .omitted, .event:
      return ValueText.short(value)
    case .caseName:
      switch value {
      case .object(let object)? where object.count == 1: return object.members[0].key
      default: return ValueText.short(value)
      }
    case .presence:
      switch value {
      case nil, .null?: return "nil"
      default: return "non-nil"
      }
    case .emptiness:
      guard let size = ValueText.size(of: value) else { return ValueText.short(value) }
      return size == 0 ? "empty" : "non-empty"
    case .count:
      guard let size = ValueText.size(of: value) else { return ValueText.short(value) }
      return ValueText.items(size)
    }
  }
}
