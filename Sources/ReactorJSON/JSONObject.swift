#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON object whose members are kept sorted by key, in Unicode code point order (the order
/// of the keys' UTF-8 bytes), each key at most once.
///
/// Sorted members give every object one canonical serialization and make lookups a binary
/// search.
public struct JSONObject: Sendable, Hashable {
  /// The members, sorted by key.
  public private(set) var members: [(key: String, value: JSONValue)]

  /// An empty object.
  public init() { members = [] }

  /// An object with these members, in any order; a repeated key keeps its last value.
  public init(_ members: some Sequence<(String, JSONValue)>) {
    self.members = []
    for (key, value) in members { self[key] = value }
  }

  /// An object from members already sorted by key with no key repeated.
  ///
  /// The fast path for the encoder and the parser.
  package init(sortedUniqueMembers members: [(key: String, value: JSONValue)]) {
    self.members = members
  }

  /// The number of members.
  public var count: Int { members.count }

  /// Whether the object has no members.
  public var isEmpty: Bool { members.isEmpty }

  /// The keys, sorted.
  public var keys: [String] { members.map(\.key) }

  /// The value of the member named `key`; setting `nil` removes the member.
  public subscript(key: String) -> JSONValue? {
    get {
      // Trace lines have a dozen members at most: a scan of equal-length keys beats a search.
      if members.count <= 16 {
        var key = key
        return key.withUTF8 { wanted in
          for index in members.indices where Self.key(members[index].key, is: wanted) {
            return members[index].value
          }
          return nil
        }
      }
      let index = insertionIndex(of: key)
      guard index < members.count, Self.keysEqual(members[index].key, key) else { return nil }
      return members[index].value
    }
    set {
      let index = insertionIndex(of: key)
      let found = index < members.count && Self.keysEqual(members[index].key, key)
      switch (found, newValue) {
      case (true, let value?): members[index].value = value
      case (true, nil): members.remove(at: index)
      case (false, let value?): members.insert((key, value), at: index)
      case (false, nil): break
      }
    }
  }

  /// Sets the member named `key`, as the subscript does, replacing a member of a small
  /// object without searching for its position.
  mutating func set(_ value: JSONValue, forKey key: String) {
    if members.count <= 16 {
      var wanted = key
      let index = wanted.withUTF8 { wanted in
        members.indices.first { Self.key(members[$0].key, is: wanted) }
      }
      if let index {
        members[index].value = value
        return
      }
    }
    self[key] = value
  }

  /// Whether `a` sorts before `b` in member order.
  package static func keyPrecedes(_ a: String, _ b: String) -> Bool {
    var a = a
    var b = b
    return a.withUTF8 { a in b.withUTF8 { b in keyPrecedes(a, b) } }
  }

  /// Whether the key whose UTF-8 is `a` sorts before the one whose UTF-8 is `b`.
  @inline(__always)
  package static func keyPrecedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    let common = min(a.count, b.count)
    if common > 16 {
      let order = memcmp(a.baseAddress!, b.baseAddress!, common)
      if order != 0 { return order < 0 }
    } else {
      // Most keys are short: a loop costs less than the call.
      for index in 0..<common where a[index] != b[index] { return a[index] < b[index] }
    }
    return a.count < b.count
  }

  /// Whether two keys are the same key: the same UTF-8 bytes. (`String`'s `==` compares by
  /// canonical equivalence, which would make "\u{E9}" and "e\u{301}" one key.)
  static func keysEqual(_ a: String, _ b: String) -> Bool {
    var b = b
    return b.withUTF8 { key(a, is: $0) }
  }

  /// Whether `key`'s UTF-8 is `bytes`: a length check, then one `memcmp`.
  @inline(__always)
  private static func key(_ key: String, is bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard key.utf8.count == bytes.count else { return false }
    var key = key
    return key.withUTF8 { utf8 in
      utf8.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, utf8.count) == 0
    }
  }

  private func insertionIndex(of key: String) -> Int {
    var low = 0
    var high = members.count
    while low < high {
      let middle = (low + high) / 2
      if Self.keyPrecedes(members[middle].key, key) { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Whether two objects have the same keys with equal values.
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    lhs.members.count == rhs.members.count
      && zip(lhs.members, rhs.members).allSatisfy {
        keysEqual($0.key, $1.key) && $0.value == $1.value
      }
  }

  /// Hashes the members in order.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(members.count)
    for member in members {
      hasher.combine(member.key)
      hasher.combine(member.value)
    }
  }
}
