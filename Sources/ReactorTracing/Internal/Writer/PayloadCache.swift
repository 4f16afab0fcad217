import ReactorJSON

/// The encodings and labels of action or mutation values already met, so that a value that
/// recurs (`increase`, `setLoading(true)`) is encoded and described once per recording.
///
/// Only values of plain-data types of at most 16 bytes are kept (`_isPOD`: no references,
/// so equal bytes mean the same value, whose encoding and description are the same), keyed by
/// those bytes; at most ``capacity`` of them. Other values are never found, and encoded every
/// time. The cache itself is not generic, so using it from unspecialized generic code looks up
/// no generic type metadata.
struct PayloadCache: Sendable {
  /// What a trace line stores for a value.
  ///
  /// A class, so that handing out an entry retains one object, not its three arrays and
  /// strings.
  final class Entry: Sendable {
    /// The Codable encoding after redaction, or `nil` when the value does not encode.
    let json: JSONValue?
    /// The readable label.
    let label: String
    /// The members an event line holds for the value: `,"label":…` and, when it encodes,
    /// `,"value":…`.
    let members: [UInt8]

    init(json: JSONValue?, label: String) {
      self.json = json
      self.label = label
      var members = Array(#","label":"#.utf8)
      JSONWriter.writeString(label, to: &members)
      if let json {
        members.append(contentsOf: #","value":"#.utf8)
        JSONWriter.write(json, to: &members)
      }
      self.members = members
    }
  }

  /// A value's bytes, zero-padded.
  private struct Key: Hashable, Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0
  }

  /// The most values kept: enough for the cases an app's enums have and payloads that take
  /// a few thousand values (an index into a list), small enough to bound memory when
  /// payloads vary without end (`setValue(n)`): an entry takes a few hundred bytes.
  static var capacity: Int { 4096 }

  private var entries: [Key: Entry] = [:]
  /// The last entry found or stored, and its key: a value that repeats (as an action sent
  /// over and over does) is found without hashing.
  private var last: (key: Key, entry: Entry)?

  private static func key<Value>(_ value: Value) -> Key? {
    guard _isPOD(Value.self), MemoryLayout<Value>.size <= MemoryLayout<Key>.size else {
      return nil
    }
    var key = Key()
    withUnsafeMutableBytes(of: &key) { key in
      withUnsafeBytes(of: value) { value in key.copyMemory(from: value) }
    }
    return key
  }

  /// The entry stored for `value`, if any.
  mutating func entry<Value>(for value: Value) -> Entry? {
    guard let key = Self.key(value) else { return nil }
    if let last, last.key == key { return last.entry }
    guard let entry = entries[key] else { return nil }
    last = (key, entry)
    return entry
  }

  /// Stores the entry for `value`, unless the cache is full or the type is not cacheable.
  mutating func store<Value>(_ entry: Entry, for value: Value) {
    guard let key = Self.key(value), entries.count < Self.capacity else { return }
    entries[key] = entry
  }
}
