/// A JSON value: what trace payloads, states and diffs are made of.
///
/// Objects keep their members sorted by key (see ``JSONObject``), so every value has exactly
/// one serialization, the canonical form that state hashes are computed over. Numbers compare
/// by value: `.int(3)` equals `.double(3)`.
public enum JSONValue: Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// An integer that fits in 64 signed bits.
  case int(Int64)
  /// An unsigned integer above `Int64.max`.
  case uint(UInt64)
  /// A finite floating-point number.
  case double(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object, its members sorted by key.
  case object(JSONObject)
}

extension JSONValue {
  /// The object's member named `key`, or `nil` if this is not an object or has no such member.
  public subscript(key: String) -> JSONValue? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  /// The string, or `nil` if this is not a string.
  public var stringValue: String? {
    if case .string(let string) = self { return string }
    return nil
  }

  /// The integer, or `nil` if this is not an integer (or an integral double) that fits `Int`.
  public var intValue: Int? {
    switch self {
    case .int(let value): Int(exactly: value)
    case .uint(let value): Int(exactly: value)
    case .double(let value): Int(exactly: value)
    default: nil
    }
  }

  /// The Boolean, or `nil` if this is not a Boolean.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The elements, or `nil` if this is not an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  /// The object, or `nil` if this is not an object.
  public var objectValue: JSONObject? {
    if case .object(let object) = self { return object }
    return nil
  }

  /// The JSON type's name, as error messages say it: `null`, `boolean`, `number`, `string`,
  /// `array` or `object`.
  public var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .int, .uint, .double: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

extension JSONValue: Hashable {
  /// Whether two values are equal, comparing numbers by value whatever their case.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    // Code point by code point, as JSON compares strings: not by canonical equivalence.
    case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)): a == b
    case (.int(let a), .int(let b)): a == b
    case (.uint(let a), .uint(let b)): a == b
    case (.double(let a), .double(let b)): a == b
    case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(exactly: a) == b
    case (.uint(let a), .double(let b)), (.double(let b), .uint(let a)): Double(exactly: a) == b
    default: false
    }
  }

  /// Hashes the value so that values that compare equal hash equally.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null:
      hasher.combine(0 as UInt8)
    case .bool(let value):
      hasher.combine(1 as UInt8)
      hasher.combine(value)
    case .int, .uint, .double:
      hasher.combine(2 as UInt8)
      switch self {
      case .int(let value): hasher.combine(Double(value))
      case .uint(let value): hasher.combine(Double(value))
      case .double(let value): hasher.combine(value)
      default: break
      }
    case .string(let value):
      hasher.combine(3 as UInt8)
      hasher.combine(value)
    case .array(let elements):
      hasher.combine(4 as UInt8)
      hasher.combine(elements)
    case .object(let object):
      hasher.combine(5 as UInt8)
      hasher.combine(object)
    }
  }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  /// `null`.
  public init(nilLiteral: ()) { self = .null }
  /// A Boolean.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An integer.
  public init(integerLiteral value: Int64) { self = .int(value) }
  /// A floating-point number.
  public init(floatLiteral value: Double) { self = .double(value) }
  /// A string.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An array.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// An object; a repeated key keeps its last value.
  public init(dictionaryLiteral members: (String, JSONValue)...) {
    self = .object(JSONObject(members))
  }
}
