#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encodes `Encodable` values as ``JSONValue``s: how actions, mutations and states become
/// trace payloads.
///
/// Keyed containers become objects, sorted by key; a key encoded twice keeps its last value.
/// Integers become ``JSONValue/int(_:)``, or ``JSONValue/uint(_:)`` above `Int64.max`. A
/// `Float` becomes the `Double` with the shortest decimal form that reads back as the same
/// `Float`: `Float(0.1)` encodes as `0.1`, not `0.10000000149011612`. JSON has no infinities or
/// NaN, so non-finite numbers encode as the strings `"NaN"`, `"Infinity"` and `"-Infinity"`,
/// which ``JSONValueDecoder`` reads back.
///
/// ```swift
/// enum Action: Codable { case increase, setLoading(Bool) }
///
/// let value = try JSONValueEncoder().encode(Action.setLoading(true))
/// value.serializedString  // {"setLoading":{"_0":true}}
/// ```
public struct JSONValueEncoder: Sendable {
  /// An encoder.
  public init() {}

  /// Encodes `value` as a JSON value.
  ///
  /// - Parameter value: The value to encode.
  /// - Returns: The value as JSON.
  /// - Throws: `EncodingError.invalidValue` if `value` encodes nothing, or an `Int128` or
  ///   `UInt128` does not fit in 64 bits; any error that `value`'s `encode(to:)` throws.
  public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
    if let scalar = JSONValue.scalar(value) { return scalar }
    let state = EncodingState()
    try value.encode(to: SlotEncoder(state: state, node: 0, slot: 0))
    guard let result = state.finish(0) else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
    }
    return result
  }
}

/// A coding key for positions in unkeyed containers, `super`, and keys rebuilt from member
/// names for coding paths.
struct JSONCodingKey: CodingKey {
  let stringValue: String
  let intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  init(intValue: Int) {
    self.stringValue = "Index \(intValue)"
    self.intValue = intValue
  }

  /// The key `superEncoder()` and `superDecoder()` use.
  static let `super` = JSONCodingKey(stringValue: "super")
}

// MARK: - Conversions

extension JSONValue {
  /// An integer, as `.int` where it fits.
  init(integer value: UInt64) {
    self = value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
  }

  /// A double; non-finite ones as strings.
  init(encoding value: Double) {
    if value.isFinite {
      self = .double(value)
    } else if value.isNaN {
      self = .string("NaN")
    } else {
      self = .string(value < 0 ? "-Infinity" : "Infinity")
    }
  }

  /// A float, as the double with its shortest round-trip decimal form.
  init(encoding value: Float) {
    guard value.isFinite else {
      self.init(encoding: Double(value))
      return
    }
    self = .double(Double(value.description) ?? Double(value))
  }

  /// A 128-bit integer, which must fit in 64 bits.
  fileprivate init<Integer: FixedWidthInteger>(
    wide value: Integer, codingPath: @autoclosure () -> [any CodingKey]
  ) throws {
    if let value = Int64(exactly: value) {
      self = .int(value)
    } else if let value = UInt64(exactly: value) {
      self = .uint(value)
    } else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: codingPath(),
          debugDescription: "\(value) does not fit in a 64-bit JSON integer."))
    }
  }
}

extension JSONValue {
  /// The encoding of a value of a standard scalar type, as the matching `encode` method of a
  /// container makes it; `nil` for other types, which encode themselves.
  ///
  /// Comparing metatypes costs far less than the generic `encode(to:)` round trip, which for
  /// an array of a thousand integers is most of the time spent encoding it.
  @inline(__always)
  static func scalar<T: Encodable>(_ value: T) -> JSONValue? {
    if T.self == Int.self { return .int(Int64(unsafeBitCast(value, to: Int.self))) }
    if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
    if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
    if T.self == Double.self { return JSONValue(encoding: unsafeBitCast(value, to: Double.self)) }
    if T.self == Int64.self { return .int(unsafeBitCast(value, to: Int64.self)) }
    // A URL is its absolute string, as Foundation's JSONEncoder writes it, not the
    // `{"relative": …}` object its own `encode(to:)` makes.
    if T.self == URL.self { return .string(unsafeBitCast(value, to: URL.self).absoluteString) }
    return nil
  }
}

// MARK: - State

/// Everything one call to ``JSONValueEncoder/encode(_:)`` builds: a table of the containers
/// created so far, each the value being built for one object or array (or the top level), and
/// the nested containers that are folded into it when encoding ends.
///
/// Containers and encoders are a reference to the state and an index into the table, small
/// enough that passing them as existentials allocates nothing.
private final class EncodingState {
  enum Kind {
    case root
    case object
    case array
  }

  struct Node {
    let kind: Kind
    /// The parent's index; -1 for the root.
    let parent: Int
    /// Where this container's value goes in its parent's members or elements.
    let slot: Int
    /// The members so far, for an object; a key may repeat until ``finish(_:)``.
    var members: [(key: String, value: JSONValue)] = []
    /// Whether the keys appended so far are strictly increasing.
    var isSorted = true
    /// The elements so far, for an array.
    var elements: [JSONValue] = []
    /// The first of the nested containers, at most one per slot, most recent first; -1 if none.
    var firstChild = -1
    /// The next of the parent's nested containers; -1 if none.
    var nextSibling = -1
    /// The highest slot with a nested container: slots above it have none, so the common case,
    /// a container for the slot just appended, needs no search.
    var highestChildSlot = -1
  }

  // Only the encoding call that owns this state touches it, one access at a time: no dynamic
  // exclusivity checks needed.
  @exclusivity(unchecked) var nodes: [Node] = []
  /// The top-level value, unless it is a container.
  @exclusivity(unchecked) var value: JSONValue?

  init() {
    nodes.reserveCapacity(4)
    nodes.append(Node(kind: .root, parent: -1, slot: 0))
  }

  /// The path of coding keys to container `node`.
  func codingPath(_ node: Int) -> [any CodingKey] {
    var path: [any CodingKey] = []
    var index = node
    while nodes[index].parent >= 0 {
      let parent = nodes[index].parent
      if nodes[parent].kind != .root {
        path.append(key(parent, slot: nodes[index].slot))
      }
      index = parent
    }
    path.reverse()
    return path
  }

  /// The path of coding keys to the value at `slot` of container `node`.
  func codingPath(_ node: Int, slot: Int) -> [any CodingKey] {
    nodes[node].kind == .root ? codingPath(node) : codingPath(node) + [key(node, slot: slot)]
  }

  /// The key of the value at `slot` of container `node`, rebuilt from the member's name or
  /// the element's index.
  func key(_ node: Int, slot: Int) -> any CodingKey {
    if nodes[node].kind == .array { return JSONCodingKey(intValue: slot) }
    return JSONCodingKey(
      stringValue: slot < nodes[node].members.count ? nodes[node].members[slot].key : "")
  }

  /// Appends a member to object `node`; returns its slot.
  @discardableResult
  @inline(__always)
  func append(_ node: Int, _ key: String, _ value: JSONValue) -> Int {
    if nodes[node].isSorted, let last = nodes[node].members.last,
      !keyPrecedes(last.key, key)
    {
      nodes[node].isSorted = false
    }
    // Room for a typical object's members at once, instead of growing one member at a time.
    if nodes[node].members.isEmpty { nodes[node].members.reserveCapacity(8) }
    nodes[node].members.append((key, value))
    return nodes[node].members.count - 1
  }

  /// Appends an element to array `node`; returns its slot.
  @discardableResult
  @inline(__always)
  func append(_ node: Int, _ value: JSONValue) -> Int {
    nodes[node].elements.append(value)
    return nodes[node].elements.count - 1
  }

  /// Sets the value at `slot` of `node`, replacing any nested container there.
  func set(_ node: Int, slot: Int, _ value: JSONValue) {
    if slot <= nodes[node].highestChildSlot { removeChild(of: node, at: slot) }
    switch nodes[node].kind {
    case .root: self.value = value
    case .object: nodes[node].members[slot].value = value
    case .array: nodes[node].elements[slot] = value
    }
  }

  /// The nested container of `kind` at `slot` of `node`: the one already there, or a new one
  /// that replaces whatever the slot held.
  func child(_ kind: Kind, of node: Int, at slot: Int) -> Int {
    if slot <= nodes[node].highestChildSlot {
      var child = nodes[node].firstChild
      while child >= 0 && nodes[child].slot != slot { child = nodes[child].nextSibling }
      if child >= 0 {
        if nodes[child].kind == kind { return child }
        removeChild(of: node, at: slot)
      }
    } else {
      nodes[node].highestChildSlot = slot
    }
    var new = Node(kind: kind, parent: node, slot: slot)
    new.nextSibling = nodes[node].firstChild
    nodes.append(new)
    nodes[node].firstChild = nodes.count - 1
    return nodes.count - 1
  }

  private func removeChild(of node: Int, at slot: Int) {
    var previous = -1
    var child = nodes[node].firstChild
    while child >= 0 {
      if nodes[child].slot == slot {
        if previous >= 0 {
          nodes[previous].nextSibling = nodes[child].nextSibling
        } else {
          nodes[node].firstChild = nodes[child].nextSibling
        }
        return
      }
      previous = child
      child = nodes[child].nextSibling
    }
  }

  /// The finished value of container `node`, with its nested containers folded in; `nil` for
  /// a top level that encoded nothing.
  func finish(_ node: Int) -> JSONValue? {
    var child = nodes[node].firstChild
    while child >= 0 {
      let value = finish(child) ?? .null
      let slot = nodes[child].slot
      switch nodes[node].kind {
      case .root: self.value = value
      case .object: nodes[node].members[slot].value = value
      case .array: nodes[node].elements[slot] = value
      }
      child = nodes[child].nextSibling
    }
    switch nodes[node].kind {
    case .root:
      return value
    case .array:
      var elements: [JSONValue] = []
      swap(&elements, &nodes[node].elements)
      return .array(elements)
    case .object:
      var members: [(key: String, value: JSONValue)] = []
      swap(&members, &nodes[node].members)
      if !nodes[node].isSorted { Self.sortKeepingLastOfEachKey(&members) }
      return .object(JSONObject(sortedUniqueMembers: members))
    }
  }

  /// Sorts members by key, stably, and keeps only the last of members with equal keys.
  private static func sortKeepingLastOfEachKey(_ members: inout [(key: String, value: JSONValue)]) {
    // Insertion sort: stable, and fast for the few members of a typical object.
    for index in 1..<members.count {
      var position = index
      while position > 0 && keyPrecedes(members[position].key, members[position - 1].key) {
        members.swapAt(position, position - 1)
        position -= 1
      }
    }
    var kept = 0
    for index in members.indices {
      if kept > 0 && !keyPrecedes(members[kept - 1].key, members[index].key) {
        members.swapAt(kept - 1, index)
      } else {
        members.swapAt(kept, index)
        kept += 1
      }
    }
    members.removeSubrange(kept...)
  }
}

/// ``JSONObject/keyPrecedes(_:_:)``, comparing the keys' UTF-8 in place.
package func keyPrecedes(_ key1: String, _ key2: String) -> Bool {
  var key1 = key1
  var key2 = key2
  return key1.withUTF8 { bytes1 in
    key2.withUTF8 { bytes2 in
      for index in 0..<min(bytes1.count, bytes2.count) where bytes1[index] != bytes2[index] {
        return bytes1[index] < bytes2[index]
      }
      return bytes1.count < bytes2.count
    }
  }
}

// MARK: - Encoder

/// The encoder for the value at one slot of a container; also its single-value container.
private struct SlotEncoder: Encoder, SingleValueEncodingContainer, JSONScalarContainer {
  let state: EncodingState
  let node: Int
  let slot: Int

  var codingPath: [any CodingKey] { state.codingPath(node, slot: slot) }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(
      ObjectEncoder<Key>(state: state, node: state.child(.object, of: node, at: slot)))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    ArrayEncoder(state: state, node: state.child(.array, of: node, at: slot))
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  func put(_ value: JSONValue) { state.set(node, slot: slot, value) }

  mutating func encode(_ value: Int128) throws {
    put(try JSONValue(wide: value, codingPath: codingPath))
  }

  mutating func encode(_ value: UInt128) throws {
    put(try JSONValue(wide: value, codingPath: codingPath))
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    if let scalar = JSONValue.scalar(value) { return put(scalar) }
    try value.encode(to: self)
  }
}

/// A keyed container: encodes an object's members.
private struct ObjectEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let state: EncodingState
  let node: Int

  var codingPath: [any CodingKey] { state.codingPath(node) }

  private func append(_ key: Key, _ value: JSONValue) { state.append(node, key.stringValue, value) }

  mutating func encodeNil(forKey key: Key) { append(key, .null) }
  mutating func encode(_ value: Bool, forKey key: Key) { append(key, .bool(value)) }
  mutating func encode(_ value: String, forKey key: Key) { append(key, .string(value)) }
  mutating func encode(_ value: Double, forKey key: Key) { append(key, JSONValue(encoding: value)) }
  mutating func encode(_ value: Float, forKey key: Key) { append(key, JSONValue(encoding: value)) }
  mutating func encode(_ value: Int, forKey key: Key) { append(key, .int(Int64(value))) }
  mutating func encode(_ value: Int8, forKey key: Key) { append(key, .int(Int64(value))) }
  mutating func encode(_ value: Int16, forKey key: Key) { append(key, .int(Int64(value))) }
  mutating func encode(_ value: Int32, forKey key: Key) { append(key, .int(Int64(value))) }
  mutating func encode(_ value: Int64, forKey key: Key) { append(key, .int(value)) }
  mutating func encode(_ value: UInt8, forKey key: Key) { append(key, .int(Int64(value))) }
  mutating func encode(_ value: UInt16, forKey key: Key) { append(key, .int(Int64(value))) }
  mutating func encode(_ value: UInt32, forKey key: Key) { append(key, .int(Int64(value))) }

  mutating func encode(_ value: UInt, forKey key: Key) {
    append(key, JSONValue(integer: UInt64(value)))
  }

  mutating func encode(_ value: UInt64, forKey key: Key) {
    append(key, JSONValue(integer: value))
  }

  mutating func encode(_ value: Int128, forKey key: Key) throws {
    append(key, try JSONValue(wide: value, codingPath: codingPath + [key]))
  }

  mutating func encode(_ value: UInt128, forKey key: Key) throws {
    append(key, try JSONValue(wide: value, codingPath: codingPath + [key]))
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    if let scalar = JSONValue.scalar(value) { return append(key, scalar) }
    // A value that encodes nothing is an empty object, as with Foundation's JSONEncoder.
    let slot = state.append(node, key.stringValue, .object(JSONObject()))
    try value.encode(to: SlotEncoder(state: state, node: node, slot: slot))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let slot = state.append(node, key.stringValue, .object(JSONObject()))
    let child = state.child(.object, of: node, at: slot)
    return KeyedEncodingContainer(ObjectEncoder<NestedKey>(state: state, node: child))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let slot = state.append(node, key.stringValue, .array([]))
    return ArrayEncoder(state: state, node: state.child(.array, of: node, at: slot))
  }

  mutating func superEncoder() -> any Encoder {
    let slot = state.append(node, "super", .object(JSONObject()))
    return SlotEncoder(state: state, node: node, slot: slot)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    let slot = state.append(node, key.stringValue, .object(JSONObject()))
    return SlotEncoder(state: state, node: node, slot: slot)
  }
}

/// An unkeyed container: encodes an array's elements.
private struct ArrayEncoder: UnkeyedEncodingContainer, JSONScalarContainer {
  let state: EncodingState
  let node: Int

  var codingPath: [any CodingKey] { state.codingPath(node) }

  var count: Int { state.nodes[node].elements.count }

  func put(_ value: JSONValue) { state.append(node, value) }

  mutating func encode(_ value: Int128) throws {
    put(try JSONValue(wide: value, codingPath: codingPath + [JSONCodingKey(intValue: count)]))
  }

  mutating func encode(_ value: UInt128) throws {
    put(try JSONValue(wide: value, codingPath: codingPath + [JSONCodingKey(intValue: count)]))
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    if let scalar = JSONValue.scalar(value) { return put(scalar) }
    let slot = state.append(node, .object(JSONObject()))
    try value.encode(to: SlotEncoder(state: state, node: node, slot: slot))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let slot = state.append(node, .object(JSONObject()))
    let child = state.child(.object, of: node, at: slot)
    return KeyedEncodingContainer(ObjectEncoder<NestedKey>(state: state, node: child))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let slot = state.append(node, .array([]))
    return ArrayEncoder(state: state, node: state.child(.array, of: node, at: slot))
  }

  mutating func superEncoder() -> any Encoder {
    SlotEncoder(state: state, node: node, slot: state.append(node, .object(JSONObject())))
  }
}
