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
  private struct Key: Equatable, Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0
  }

  /// The most values kept: enough for the cases an app's enums have and payloads that take
  /// a few thousand values (an index into a list), small enough to bound memory when
  /// payloads vary without end (`setValue(n)`): an entry takes a few hundred bytes.
  static var capacity: Int { 4096 }

  // A table of slots, a power of two of them and at most half full, each empty or holding an
  // entry and its key, found by linear probing from the key's hash: a lookup costs a
  // multiplication and a comparison or two, where a `Dictionary` hashed the key with SipHash
  // (about 270 instructions a lookup on the writer thread, two lookups an action).
  private var slots: [Slot] = []
  private var entries: [Entry?] = []
  /// The members of the entries stored, one after the other.
  ///
  /// A line is written from them without touching the entry or retaining it. With an entry
  /// per value of a payload that takes a thousand values, every lookup missed the cache for
  /// the key, the entry, its array and the array's bytes; it misses for the slot and the
  /// bytes.
  private var arena: [UInt8] = []
  /// How far a key's hash is shifted right to give its first slot: 64 − log₂(slots).
  private var shift: UInt64 = 64
  /// How many entries are stored.
  private(set) var count = 0
  /// The last slot found or stored, and its key: a value that repeats (as an action sent
  /// over and over does) is found without hashing.
  private var last: (key: Key, slot: Int)?

  /// A slot's key, and where its entry's members are in ``arena``; `count` is 0 only in an
  /// empty slot (an entry's members hold its label at least), so that a lookup reads the
  /// slots alone.
  private struct Slot: Sendable {
    var key = Key()
    var start = 0
    var count = 0

    var isEmpty: Bool { count == 0 }
  }

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

  /// The first slot probed for `key`: the high bits of a multiplicative hash of its words.
  private func firstSlot(of key: Key) -> Int {
    let mixed = (key.low ^ (key.high &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
    return Int(truncatingIfNeeded: mixed >> shift)
  }

  /// The slot that holds `key`, or the empty slot where it would go.
  private func slot(of key: Key) -> Int {
    let mask = slots.count - 1
    var slot = firstSlot(of: key)
    while !slots[slot].isEmpty && slots[slot].key != key { slot = (slot + 1) & mask }
    return slot
  }

  /// The slot holding the entry for `value`, if any.
  private mutating func filledSlot<Value>(for value: Value) -> Int? {
    guard let key = Self.key(value) else { return nil }
    if let last, last.key == key { return last.slot }
    guard count > 0 else { return nil }
    let slot = slot(of: key)
    guard !slots[slot].isEmpty else { return nil }
    last = (key, slot)
    return slot
  }

  /// The entry stored for `value`, if any.
  mutating func entry<Value>(for value: Value) -> Entry? {
    filledSlot(for: value).flatMap { entries[$0] }
  }

  /// Calls `body` with the members of the entry stored for `value`, if any, read in place;
  /// returns whether there is one.
  ///
  /// `body` returns nothing: a result of a generic type, made optional, cost a lookup of its
  /// type's metadata at every call from the unspecialized writer.
  mutating func withMembers<Value>(
    for value: Value, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) -> Bool {
    guard let slot = filledSlot(for: value) else { return false }
    let span = slots[slot].start..<slots[slot].start + slots[slot].count
    arena.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[span])) }
    return true
  }

  /// Stores the entry for `value`, unless the cache is full or the type is not cacheable.
  mutating func store<Value>(_ entry: Entry, for value: Value) {
    guard let key = Self.key(value), count < Self.capacity else { return }
    if 2 * (count + 1) > entries.count { grow() }
    let slot = slot(of: key)
    let members = entry.members
    precondition(!members.isEmpty, "an entry's members hold its label")
    if slots[slot].isEmpty {
      count += 1
    } else if members.count <= slots[slot].count {
      // A replaced entry's members in place of the old ones: the arena grows only with
      // the entries it holds.
      arena.replaceSubrange(slots[slot].start..<slots[slot].start + members.count, with: members)
      slots[slot].count = members.count
      entries[slot] = entry
      return
    }
    slots[slot] = Slot(key: key, start: arena.count, count: members.count)
    arena.append(contentsOf: members)
    entries[slot] = entry
  }

  /// Doubles the slots (16 at first), and puts each entry in its slot among them.
  private mutating func grow() {
    let oldSlots = slots
    let oldEntries = entries
    let size = max(16, 2 * entries.count)
    slots = Array(repeating: Slot(), count: size)
    entries = Array(repeating: nil, count: size)
    shift = UInt64(64 - size.trailingZeroBitCount)
    last = nil
    for index in oldEntries.indices {
      guard let entry = oldEntries[index] else { continue }
      let slot = slot(of: oldSlots[index].key)
      slots[slot] = oldSlots[index]
      entries[slot] = entry
    }
  }
}
