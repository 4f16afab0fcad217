public import ReactorJSON

/// How a `@Pulse` field shows in a state's JSON; the one place that knows the shape.
///
/// A pulse is `{"value": v, "valueUpdatedCount": n}`, or `{"valueUpdatedCount": n}` while its
/// optional value is `nil`.
///
/// A pulse's count grows every time it is assigned, even with an equal value, so tools read
/// a changed count as "the pulse fired" and leave the count out where states are compared
/// by what they show.
public enum StatePulse {
  /// The member holding the pulse's value.
  public static let valueKey = "value"

  /// The member holding how many times the pulse was assigned.
  public static let countKey = "valueUpdatedCount"

  /// Whether `object` has a pulse's shape: a count, and at most a value besides.
  ///
  /// - Parameter object: A JSON object.
  /// - Returns: Whether it is a pulse as the state encodes one.
  public static func isPulse(_ object: JSONObject) -> Bool {
    object[countKey] != nil && (object.count == 1 || (object.count == 2 && object[valueKey] != nil))
  }

  /// The pulse's value, `.null` while it holds `nil`; `nil` when `json` is no pulse.
  ///
  /// - Parameter json: A field's JSON.
  /// - Returns: The value the pulse carries.
  public static func value(of json: JSONValue) -> JSONValue? {
    guard case .object(let object) = json, isPulse(object) else { return nil }
    return object[valueKey] ?? .null
  }

  /// The pulse's update count; `nil` when `json` is no pulse.
  ///
  /// - Parameter json: A field's JSON.
  /// - Returns: The count as recorded.
  public static func count(of json: JSONValue) -> JSONValue? {
    guard case .object(let object) = json, isPulse(object) else { return nil }
    return object[countKey]
  }

  /// `json` with every pulse replaced by its value: what a state shows, counts left out.
  ///
  /// - Parameter json: A state's JSON.
  /// - Returns: The state without pulse counts.
  public static func withoutCounts(_ json: JSONValue) -> JSONValue {
    switch json {
    case .object(let object):
      if let value = value(of: json) { return withoutCounts(value) }
      return .object(JSONObject(object.members.map { ($0.key, withoutCounts($0.value)) }))
    case .array(let elements):
      return .array(elements.map(withoutCounts))
    default:
      return json
    }
  }
}
