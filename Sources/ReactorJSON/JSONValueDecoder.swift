#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes `Decodable` values from ``JSONValue``s: how a trace reader turns payloads back into
/// actions, mutations and states.
///
/// Numbers convert only exactly: an `Int` decodes from `3` or `3.0` but not from `3.5`, and
/// not from a number out of its range. A `Double` or `Float` decodes from any number, and from
/// the strings `"NaN"`, `"Infinity"` and `"-Infinity"` that ``JSONValueEncoder`` writes for
/// non-finite values. A missing key and `null` both decode as `nil` for optionals. Failures
/// are the standard `DecodingError`s, with the coding path to the offending value.
///
/// ```swift
/// enum Action: Codable { case increase, setLoading(Bool) }
///
/// let action = try JSONValueDecoder().decode(Action.self, from: ["setLoading": ["_0": true]])
/// ```
public struct JSONValueDecoder: Sendable {
  /// A decoder.
  public init() {}

  /// Decodes a value of type `type` from `value`.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - value: The JSON to decode it from.
  /// - Returns: The decoded value.
  /// - Throws: `DecodingError` if `value` does not match what `type` expects; any error that
  ///   `type`'s `init(from:)` throws.
  public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    try ValueDecoder(value: value, codingPath: []).decodeValue(T.self)
  }
}

// MARK: - Decoder

/// The decoder, and the single-value container, for one value.
///
/// Decoding a nested value reuses the decoder: it swaps in the nested value and pushes its
/// key on the coding path for the duration, which allocates nothing.
private final class ValueDecoder: Decoder, SingleValueDecodingContainer {
  // Decoding is synchronous and these are never accessed while a modification is in
  // progress: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private(set) var value: JSONValue
  @exclusivity(unchecked) private(set) var codingPath: [any CodingKey]

  init(value: JSONValue, codingPath: [any CodingKey]) {
    self.value = value
    self.codingPath = codingPath
  }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let object) = value else {
      throw mismatch(value, expected: "an object", type: [String: Any].self, codingPath)
    }
    return KeyedDecodingContainer(
      ObjectDecoder<Key>(
        decoder: self, members: object.members, depth: codingPath.count, ownPath: []))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else {
      throw mismatch(value, expected: "an array", type: [Any].self, codingPath)
    }
    return ArrayDecoder(decoder: self, elements: elements, depth: codingPath.count)
  }

  func singleValueContainer() -> any SingleValueDecodingContainer { self }

  /// Decodes `type` from `value`, the value under `ownPath` and then `key` in the container
  /// whose coding path has `depth` of this decoder's keys.
  func decode<T: Decodable>(
    _ type: T.Type, from value: JSONValue, key: some CodingKey, depth: Int,
    ownPath: [any CodingKey] = []
  ) throws -> T {
    // Containers are used innermost first, so the path is the container's own here; trim it
    // in case one outlived a nested decoding.
    if codingPath.count > depth { codingPath.removeSubrange(depth...) }
    let saved = self.value
    self.value = value
    codingPath.append(contentsOf: ownPath)
    codingPath.append(key)
    defer {
      self.value = saved
      codingPath.removeSubrange(depth...)
    }
    return try decodeValue(T.self)
  }

  /// A decoder of its own for `value` at `codingPath`, for super decoders and nested
  /// containers of unkeyed containers, which may be used in any order.
  func detached(_ value: JSONValue, codingPath: [any CodingKey]) -> ValueDecoder {
    ValueDecoder(value: value, codingPath: codingPath)
  }

  // Single-value container.

  func decodeNil() -> Bool {
    if case .null = value { return true }
    return false
  }

  func decode(_ type: Bool.Type) throws -> Bool { try unboxBool(value, codingPath) }
  func decode(_ type: String.Type) throws -> String { try unboxString(value, codingPath) }
  func decode(_ type: Double.Type) throws -> Double { try unboxDouble(value, codingPath) }
  func decode(_ type: Float.Type) throws -> Float { try unboxFloat(value, codingPath) }
  func decode(_ type: Int.Type) throws -> Int { try unboxInteger(value, codingPath) }
  func decode(_ type: Int8.Type) throws -> Int8 { try unboxInteger(value, codingPath) }
  func decode(_ type: Int16.Type) throws -> Int16 { try unboxInteger(value, codingPath) }
  func decode(_ type: Int32.Type) throws -> Int32 { try unboxInteger(value, codingPath) }
  func decode(_ type: Int64.Type) throws -> Int64 { try unboxInteger(value, codingPath) }
  func decode(_ type: Int128.Type) throws -> Int128 { try unboxInteger(value, codingPath) }
  func decode(_ type: UInt.Type) throws -> UInt { try unboxInteger(value, codingPath) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try unboxInteger(value, codingPath) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try unboxInteger(value, codingPath) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try unboxInteger(value, codingPath) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try unboxInteger(value, codingPath) }
  func decode(_ type: UInt128.Type) throws -> UInt128 { try unboxInteger(value, codingPath) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(T.self) }

  /// Decodes `T` from ``value``: a `URL` from its string, as ``JSONValueEncoder`` writes it
  /// (or from the object of its own `Codable` shape); any other type through its
  /// `init(from:)`.
  @inline(__always)
  func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    if T.self == URL.self, case .string(let text) = value {
      guard let url = URL(string: text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(codingPath: codingPath, debugDescription: "Invalid URL string."))
      }
      return unsafeBitCast(url, to: T.self)
    }
    return try T(from: self)
  }
}

// MARK: - Keyed container

/// A keyed container: decodes an object's members.
private struct ObjectDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: ValueDecoder
  let members: [(key: String, value: JSONValue)]
  /// How many of the decoder's coding path keys lead to this container.
  let depth: Int
  /// The keys after those that lead to this container, for nested containers.
  let ownPath: [any CodingKey]

  var codingPath: [any CodingKey] {
    let path = Array(decoder.codingPath.prefix(depth))
    return ownPath.isEmpty ? path : path + ownPath
  }

  var allKeys: [Key] {
    var keys: [Key] = []
    keys.reserveCapacity(members.count)
    for member in members {
      if let key = Key(stringValue: member.key) { keys.append(key) }
    }
    return keys
  }

  func contains(_ key: Key) -> Bool { member(key) != nil }

  /// The value of the member named by `key`.
  private func member(_ key: Key) -> JSONValue? { member(named: key.stringValue) }

  /// The value of the member named `name`, found by binary search.
  private func member(named name: String) -> JSONValue? {
    var name = name
    return name.withUTF8 { name in
      var low = 0
      var high = members.count
      while low < high {
        let middle = (low &+ high) / 2
        var candidate = members[middle].key
        let order = candidate.withUTF8 { candidate in compareBytes(candidate, name) }
        if order == 0 { return members[middle].value }
        if order < 0 { low = middle + 1 } else { high = middle }
      }
      return nil
    }
  }

  /// The value of the member named by `key`; throws if there is none.
  private func value(_ key: Key) throws -> JSONValue {
    guard let value = member(key) else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return value
  }

  /// The value of the member named by `key`, or `nil` if there is none or it is `null`.
  private func valueIfPresent(_ key: Key) -> JSONValue? {
    switch member(key) {
    case .null, nil: nil
    case let value?: value
    }
  }

  private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

  func decodeNil(forKey key: Key) -> Bool { valueIfPresent(key) == nil }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try unboxBool(value(key), path(key))
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try unboxString(value(key), path(key))
  }

  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try unboxDouble(value(key), path(key))
  }

  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try unboxFloat(value(key), path(key))
  }

  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try unboxInteger(value(key), path(key))
  }

  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try unboxInteger(value(key), path(key))
  }

  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try unboxInteger(value(key), path(key))
  }

  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try unboxInteger(value(key), path(key))
  }

  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try unboxInteger(value(key), path(key))
  }

  func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
    try unboxInteger(value(key), path(key))
  }

  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try unboxInteger(value(key), path(key))
  }

  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try unboxInteger(value(key), path(key))
  }

  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try unboxInteger(value(key), path(key))
  }

  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try unboxInteger(value(key), path(key))
  }

  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try unboxInteger(value(key), path(key))
  }

  func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
    try unboxInteger(value(key), path(key))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoder.decode(T.self, from: value(key), key: key, depth: depth, ownPath: ownPath)
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try valueIfPresent(key).map { try unboxBool($0, path(key)) }
  }

  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try valueIfPresent(key).map { try unboxString($0, path(key)) }
  }

  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try valueIfPresent(key).map { try unboxDouble($0, path(key)) }
  }

  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try valueIfPresent(key).map { try unboxFloat($0, path(key)) }
  }

  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try valueIfPresent(key).map { try unboxInteger($0, path(key)) }
  }

  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try valueIfPresent(key).map { try unboxInteger($0, path(key)) }
  }

  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try valueIfPresent(key).map { try unboxInteger($0, path(key)) }
  }

  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try valueIfPresent(key).map { try unboxInteger($0, path(key)) }
  }

  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try valueIfPresent(key).map { try unboxInteger($0, path(key)) }
  }

  func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
    try valueIfPresent(key).map { try unboxInteger($0, path(key)) }
  }

  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try valueIfPresent(key).map { try unboxInteger($0, path(key)) }
  }

  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try valueIfPresent(key).map { try unboxInteger($0, path(key)) }
  }

  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try valueIfPresent(key).map { try unboxInteger($0, path(key)) }
  }

  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try valueIfPresent(key).map { try unboxInteger($0, path(key)) }
  }

  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try valueIfPresent(key).map { try unboxInteger($0, path(key)) }
  }

  func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
    try valueIfPresent(key).map { try unboxInteger($0, path(key)) }
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let value = valueIfPresent(key) else { return nil }
    return try decoder.decode(T.self, from: value, key: key, depth: depth, ownPath: ownPath)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let value = try value(key)
    guard case .object(let object) = value else {
      throw mismatch(value, expected: "an object", type: [String: Any].self, path(key))
    }
    var path = ownPath
    path.append(key)
    return KeyedDecodingContainer(
      ObjectDecoder<NestedKey>(
        decoder: decoder, members: object.members, depth: depth, ownPath: path))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder.detached(value(key), codingPath: path(key)).unkeyedContainer()
  }

  func superDecoder() -> any Decoder {
    decoder.detached(
      member(named: "super") ?? .null, codingPath: codingPath + [JSONCodingKey.super])
  }

  func superDecoder(forKey key: Key) -> any Decoder {
    decoder.detached(member(key) ?? .null, codingPath: path(key))
  }
}

// MARK: - Unkeyed container

/// An unkeyed container: decodes an array's elements in order.
///
/// Three words, so that returning it as an existential allocates nothing: the depth and the
/// index are 32-bit (no array in memory has 2^31 elements of `JSONValue`'s size).
private struct ArrayDecoder: UnkeyedDecodingContainer {
  let decoder: ValueDecoder
  let elements: [JSONValue]
  /// How many of the decoder's coding path keys lead to this container.
  private let storedDepth: Int32
  private var index: Int32 = 0

  init(decoder: ValueDecoder, elements: [JSONValue], depth: Int) {
    self.decoder = decoder
    self.elements = elements
    self.storedDepth = Int32(truncatingIfNeeded: depth)
  }

  private var depth: Int { Int(storedDepth) }

  var currentIndex: Int { Int(index) }

  var codingPath: [any CodingKey] { Array(decoder.codingPath.prefix(depth)) }

  var count: Int? { elements.count }

  var isAtEnd: Bool { currentIndex >= elements.count }

  private var currentKey: JSONCodingKey { JSONCodingKey(intValue: currentIndex) }

  /// The next element; throws `valueNotFound` for `type` at the end.
  private func next(_ type: Any.Type) throws -> JSONValue {
    guard currentIndex < elements.count else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: codingPath + [currentKey], debugDescription: "Unkeyed container is at end."))
    }
    return elements[currentIndex]
  }

  /// Decodes the next element with `unbox`, moving past it only if that succeeds.
  private mutating func decodeNext<T>(
    _ type: T.Type, _ unbox: (JSONValue, @autoclosure () -> [any CodingKey]) throws -> T
  ) throws -> T {
    let value = try unbox(next(type), codingPath + [currentKey])
    index += 1
    return value
  }

  mutating func decodeNil() throws -> Bool {
    guard case .null = try next(Any?.self) else { return false }
    index += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeNext(type, unboxBool) }
  mutating func decode(_ type: String.Type) throws -> String { try decodeNext(type, unboxString) }
  mutating func decode(_ type: Double.Type) throws -> Double { try decodeNext(type, unboxDouble) }
  mutating func decode(_ type: Float.Type) throws -> Float { try decodeNext(type, unboxFloat) }
  mutating func decode(_ type: Int.Type) throws -> Int { try decodeNext(type, unboxInteger) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeNext(type, unboxInteger) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeNext(type, unboxInteger) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeNext(type, unboxInteger) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeNext(type, unboxInteger) }
  mutating func decode(_ type: Int128.Type) throws -> Int128 { try decodeNext(type, unboxInteger) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeNext(type, unboxInteger) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeNext(type, unboxInteger) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeNext(type, unboxInteger) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeNext(type, unboxInteger) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeNext(type, unboxInteger) }

  mutating func decode(_ type: UInt128.Type) throws -> UInt128 {
    try decodeNext(type, unboxInteger)
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let value = try next(type)
    let decoded = try decoder.decode(T.self, from: value, key: currentKey, depth: depth)
    index += 1
    return decoded
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let value = try next(KeyedDecodingContainer<NestedKey>.self)
    let container = try decoder.detached(value, codingPath: codingPath + [currentKey])
      .container(keyedBy: type)
    index += 1
    return container
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let value = try next((any UnkeyedDecodingContainer).self)
    let container = try decoder.detached(value, codingPath: codingPath + [currentKey])
      .unkeyedContainer()
    index += 1
    return container
  }

  mutating func superDecoder() throws -> any Decoder {
    let value = try next((any Decoder).self)
    let decoder = decoder.detached(value, codingPath: codingPath + [currentKey])
    index += 1
    return decoder
  }
}

// MARK: - Conversions

/// The error for a value of the wrong kind.
private func mismatch(
  _ value: JSONValue, expected: String, type: Any.Type, _ codingPath: [any CodingKey]
) -> DecodingError {
  if case .null = value {
    return DecodingError.valueNotFound(
      type,
      DecodingError.Context(
        codingPath: codingPath, debugDescription: "Expected \(expected) but found null."))
  }
  return DecodingError.typeMismatch(
    type,
    DecodingError.Context(
      codingPath: codingPath,
      debugDescription: "Expected \(expected) but found \(article(value.kindName))."))
}

private func article(_ kindName: String) -> String {
  (kindName.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + kindName
}

private func unboxBool(_ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey])
  throws -> Bool
{
  guard case .bool(let bool) = value else {
    throw mismatch(value, expected: "a boolean", type: Bool.self, codingPath())
  }
  return bool
}

private func unboxString(_ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey])
  throws -> String
{
  guard case .string(let string) = value else {
    throw mismatch(value, expected: "a string", type: String.self, codingPath())
  }
  return string
}

private func unboxDouble(_ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey])
  throws -> Double
{
  switch value {
  case .double(let double): return double
  case .int(let integer): return Double(integer)
  case .uint(let integer): return Double(integer)
  case .string("NaN"): return .nan
  case .string("Infinity"): return .infinity
  case .string("-Infinity"): return -.infinity
  default: throw mismatch(value, expected: "a number", type: Double.self, codingPath())
  }
}

private func unboxFloat(_ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey])
  throws -> Float
{
  let double = try unboxDouble(value, codingPath())
  let float = Float(double)
  guard float.isFinite || !double.isFinite else {
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: codingPath(), debugDescription: "Number \(double) does not fit in Float."))
  }
  return float
}

private func unboxInteger<Integer: FixedWidthInteger>(
  _ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey]
) throws -> Integer {
  let integer: Integer?
  switch value {
  case .int(let number): integer = Integer(exactly: number)
  case .uint(let number): integer = Integer(exactly: number)
  case .double(let number): integer = Integer(exactly: number)
  default: throw mismatch(value, expected: "a number", type: Integer.self, codingPath())
  }
  guard let integer else {
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: codingPath(),
        debugDescription: "Number \(value.serializedString) does not fit in \(Integer.self)."))
  }
  return integer
}

/// Compares two byte strings lexicographically: negative, zero or positive.
private func compareBytes(
  _ bytes1: UnsafeBufferPointer<UInt8>, _ bytes2: UnsafeBufferPointer<UInt8>
)
  -> Int
{
  for index in 0..<min(bytes1.count, bytes2.count) where bytes1[index] != bytes2[index] {
    return bytes1[index] < bytes2[index] ? -1 : 1
  }
  return bytes1.count - bytes2.count
}
