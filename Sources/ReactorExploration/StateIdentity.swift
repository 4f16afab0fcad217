public import ReactorTracing

/// What makes two states the same state for an exploration: the whole state, or its
/// projection onto a few fields, in either case with `@Pulse` counters left out.
///
/// A pulse's counter grows every time it is assigned, so the whole state of a reactor with a
/// pulse never repeats; exploring it would never end. The identity keeps a pulse's value and
/// drops its counter: `{"value": "Limit reached", "valueUpdatedCount": 3}` is seen as
/// `"Limit reached"`.
///
/// ```swift
/// let whole = StateIdentity.wholeState
/// let loading = StateIdentity(keys: ["isLoading", "value"])
/// ```
public struct StateIdentity: Sendable, Hashable {
  /// The fields kept, as dotted paths; empty for the whole state.
  public var keys: [String]

  /// Every distinct state (pulse counters aside) is its own state.
  public static let wholeState = StateIdentity(keys: [])

  /// An identity that keeps the fields at the dotted paths `keys`: `isLoading`, `user.name`.
  /// - Parameter keys: The fields; empty for the whole state.
  public init(keys: [String]) {
    self.keys = keys
  }

  /// The state as the exploration shows and compares it: pulses replaced by their values
  /// and, with keys, an object of the kept fields named by their dotted paths (`null` for a
  /// field the state lacks).
  /// - Parameter state: A state's JSON.
  /// - Returns: The state's identity as JSON.
  public func identity(of state: JSONValue) -> JSONValue {
    let plain = Self.withoutPulseCounters(state)
    guard !keys.isEmpty else { return plain }
    return .object(
      JSONObject(keys.map { key in (key, Self.value(at: key, in: plain) ?? .null) }))
  }

  /// The value at a dotted path, `nil` when the state has none.
  static func value(at key: String, in state: JSONValue) -> JSONValue? {
    var value: JSONValue? = state
    for component in key.split(separator: ".", omittingEmptySubsequences: false) {
      guard let current = value else { return nil }
      if case .array(let elements) = current, let index = Int(component) {
        value = elements.indices.contains(index) ? elements[index] : JSONValue?.none
      } else {
        value = current[String(component)]
      }
    }
    return value
  }

  /// `value` with every `{"value": v, "valueUpdatedCount": n}` replaced by `v`.
  static func withoutPulseCounters(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let object):
      if object.count == 2, let inner = object["value"], object["valueUpdatedCount"] != nil {
        return withoutPulseCounters(inner)
      }
      return .object(
        JSONObject(object.members.map { ($0.key, withoutPulseCounters($0.value)) }))
    case .array(let elements):
      return .array(elements.map(withoutPulseCounters))
    default:
      return value
    }
  }
}
