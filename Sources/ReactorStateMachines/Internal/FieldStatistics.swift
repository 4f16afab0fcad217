import ReactorTracing

/// What one top-level field of a state held across traces: enough to choose how to draw it,
/// with the sets of values and counts capped so that memory stays small.
struct FieldStatistics {
  /// The field's declared shape, from the trace's schema, when recorded.
  var schema: TypeSchema?
  /// Distinct canonical values (`nil` for a missing member), up to the cap.
  var values: Set<String> = []
  /// Whether more distinct values occurred than the cap.
  var hasManyValues = false
  /// Distinct collection sizes, up to the cap.
  var counts: Set<Int> = []
  var hasManyCounts = false
  var sawNil = false
  var sawEmpty = false
  var sawNonEmpty = false
  var sawCollection = false
  var sawString = false
  var sawNumber = false
  var sawBool = false
  var sawObject = false
  var sawPulseShape = true

  /// Adds one occurrence of the field's value.
  mutating func note(_ value: JSONValue?, cap: Int) {
    if !hasManyValues {
      values.insert(value?.serializedString ?? "nil")
      if values.count > cap { hasManyValues = true }
    }
    switch value {
    case nil, .null?:
      sawNil = true
      sawPulseShape = false
    case .bool?:
      sawBool = true
      sawPulseShape = false
    case .int?, .uint?, .double?:
      sawNumber = true
      sawPulseShape = false
    case .string(let string)?:
      sawString = true
      sawPulseShape = false
      if string.isEmpty { sawEmpty = true } else { sawNonEmpty = true }
    case .array(let elements)?:
      sawCollection = true
      sawPulseShape = false
      noteCount(elements.count, cap: cap)
    case .object(let object)?:
      sawObject = true
      if !StatePulse.isPulse(object) { sawPulseShape = false }
      noteCount(object.count, cap: cap)
    }
  }

  private mutating func noteCount(_ count: Int, cap: Int) {
    if count == 0 { sawEmpty = true } else { sawNonEmpty = true }
    guard !hasManyCounts else { return }
    counts.insert(count)
    if counts.count > cap { hasManyCounts = true }
  }

  /// How to draw the field: its value when few distinct values occurred, otherwise a
  /// coarser class chosen by what it holds; left out when that class never changes.
  func rule(for name: String, limit: Int) -> FieldRule {
    let base = schema.map(Self.unwrapped)
    let isOptional = schema.map(Self.isOptional) ?? false
    let valueCount = hasManyValues ? "more than \(limit) values" : "\(values.count) values"
    if isPulse { return FieldRule(name: name, abstraction: .event) }
    if values.count == 1 && !hasManyValues {
      return FieldRule(name: name, abstraction: .omitted, reason: "always " + onlyValue)
    }
    if case .primitive("Bool")? = base { return FieldRule(name: name, abstraction: .value) }
    if sawBool && !sawNumber && !sawString && !sawCollection {
      return FieldRule(name: name, abstraction: .value)
    }
    if case .enumeration? = base {
      return FieldRule(
        name: name, abstraction: hasManyValues ? .caseName : .value, reason: valueCount)
    }
    // An optional shows its value only when it holds one simple value or none: which of
    // several values, or which record, it holds is data; whether it holds one is control.
    let isNilable = isOptional || (sawNil && !isCollection)
    let holdsRecords = sawCollection || sawObject
    if !hasManyValues && !(isNilable && (values.count > 2 || holdsRecords)) {
      return FieldRule(name: name, abstraction: .value, reason: valueCount)
    }
    if isNilable {
      return FieldRule(name: name, abstraction: .presence, reason: valueCount)
    }
    if isCollection {
      if !hasManyCounts {
        return counts.count == 1
          ? FieldRule(name: name, abstraction: .omitted, reason: valueCount + ", one size")
          : FieldRule(name: name, abstraction: .count, reason: valueCount)
      }
      return FieldRule(
        name: name, abstraction: .emptiness, reason: valueCount + ", more than \(limit) sizes")
    }
    if sawString {
      return sawEmpty && sawNonEmpty
        ? FieldRule(name: name, abstraction: .emptiness, reason: valueCount)
        : FieldRule(name: name, abstraction: .omitted, reason: valueCount + ", never empty")
    }
    return FieldRule(name: name, abstraction: .omitted, reason: valueCount)
  }

  private var onlyValue: String {
    let value = values.first ?? "nil"
    return value.count > 20 ? "the same value" : value == "null" ? "nil" : value
  }

  private var isCollection: Bool {
    switch schema.map(Self.unwrapped) {
    case .array?, .set?, .dictionary?: true
    case nil: sawCollection
    default: false
    }
  }

  private var isPulse: Bool {
    if case .structure(let name, _, _)? = schema { return name.hasPrefix("Pulse<") }
    return schema == nil && sawPulseShape && !values.isEmpty
  }

  private static func unwrapped(_ schema: TypeSchema) -> TypeSchema {
    if case .optional(let wrapped) = schema { return unwrapped(wrapped) }
    return schema
  }

  private static func isOptional(_ schema: TypeSchema) -> Bool {
    if case .optional = schema { return true }
    return false
  }
}
