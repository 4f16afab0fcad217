/// A single-value or unkeyed encoding container that takes each standard scalar as the
/// ``JSONValue`` it encodes to, the same way in ``JSONValueEncoder`` and
/// ``CanonicalJSONEncoder``: conforming gives it every `encodeNil` and scalar `encode` but the
/// 128-bit ones, which each encoder handles its own way.
protocol JSONScalarContainer {
  /// Takes one scalar's encoding.
  mutating func put(_ value: JSONValue)
}

extension JSONScalarContainer {
  mutating func encodeNil() { put(.null) }
  mutating func encode(_ value: Bool) { put(.bool(value)) }
  mutating func encode(_ value: String) { put(.string(value)) }
  mutating func encode(_ value: Double) { put(JSONValue(encoding: value)) }
  mutating func encode(_ value: Float) { put(JSONValue(encoding: value)) }
  mutating func encode(_ value: Int) { put(.int(Int64(value))) }
  mutating func encode(_ value: Int8) { put(.int(Int64(value))) }
  mutating func encode(_ value: Int16) { put(.int(Int64(value))) }
  mutating func encode(_ value: Int32) { put(.int(Int64(value))) }
  mutating func encode(_ value: Int64) { put(.int(value)) }
  mutating func encode(_ value: UInt) { put(JSONValue(integer: UInt64(value))) }
  mutating func encode(_ value: UInt8) { put(.int(Int64(value))) }
  mutating func encode(_ value: UInt16) { put(.int(Int64(value))) }
  mutating func encode(_ value: UInt32) { put(.int(Int64(value))) }
  mutating func encode(_ value: UInt64) { put(JSONValue(integer: value)) }
}
