public import ReactorTracing

/// What makes two states the same state for an exploration: the whole state, or its
/// projection onto a few fields, in either case with `@Pulse` counters left out.
///
/// A pulse's counter grows every time it is assigned, so the whole state of a reactor with a
/// pulse never repeats; exploring it would never end. The identity keeps a pulse's value and
/// drops its counter (``StatePulse``): a pulse holding "Limit reached" is seen as
/// `"Limit reached"`.
///
/// ```swift
/// let whole = StateIdentity.wholeState
/// let loading = StateIdentity(keys: ["isLoading", "value"])
/// ```
public struct StateIdentity: Sendable, Hashable {
  /// The fields kept; empty for the whole state.
  public var keys: [StatePath]

  /// Every distinct state (pulse counters aside) is its own state.
  public static let wholeState = StateIdentity(keys: [])

  /// An identity that keeps the fields at `keys`: `isLoading`, `user.name`, `tasks.0.title`.
  ///
  /// - Parameter keys: The fields; empty for the whole state.
  public init(keys: [StatePath]) {
    self.keys = keys
  }

  /// The state as the exploration shows and compares it: pulses replaced by their values
  /// and, with keys, an object of the kept fields named by their paths (`null` for a field
  /// the state lacks).
  ///
  /// - Parameter state: A state's JSON.
  /// - Returns: The state's identity as JSON.
  public func identity(of state: JSONValue) -> JSONValue {
    let plain = StatePulse.withoutCounts(state)
    guard !keys.isEmpty else { return plain }
    return .object(JSONObject(keys.map { key in (key.description, key.value(in: plain) ?? .null) }))
  }
}
