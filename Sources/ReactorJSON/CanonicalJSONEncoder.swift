#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes `Encodable` values straight to their canonical JSON bytes: the bytes
/// `JSONValueEncoder().encode(value).serialized` gives, without building the tree.
///
/// A replay encodes the state after every step only to hash it; most of the cost of
/// ``JSONValueEncoder`` is the tree. This encoder writes each member's bytes as it comes and,
/// when an object's encoding returns, puts its members in key order (keeping the last of a
/// repeated key), so a state of plain structs, enums, arrays and dictionaries takes one pass.
///
/// It handles values whose containers are used one at a time, each while the `encode(to:)`
/// that asked for it runs: what the compiler synthesizes. A value that does anything else (a
/// nested container or a `superEncoder`, a second container from one encoder, a container
/// used after its value returned, a 128-bit integer, a question about the coding path, or a
/// top level that encodes nothing), or whose encoding throws, is encoded again with
/// ``JSONValueEncoder`` and serialized, so the bytes and the errors are always that encoder's.
///
/// ```swift
/// var encoder = CanonicalJSONEncoder()
/// let hash = try encoder.hash(state)
/// ```
package struct CanonicalJSONEncoder {
  private let owner = CanonicalOutputOwner()
  /// The working memory, which the owner lets go with the last copy of this encoder.
  private var output: CanonicalOutput { owner.output }

  /// An encoder; keep it to reuse its working memory across values.
  package init() {}

  /// Replaces the contents of `bytes` with `value`'s canonical JSON.
  /// - Parameters:
  ///   - value: The value to encode.
  ///   - bytes: Where the bytes go; its capacity is reused.
  /// - Throws: What ``JSONValueEncoder/encode(_:)`` throws for `value`.
  package func encode<T: Encodable>(_ value: T, into bytes: inout [UInt8]) throws {
    try write(value)
    bytes.removeAll(keepingCapacity: true)
    bytes.append(contentsOf: output.bytes.written)
  }

  /// The hash of `value`'s canonical JSON: the hash a trace records for it as a state.
  /// - Parameter value: The value to hash.
  /// - Returns: The FNV-1a hash of the bytes ``encode(_:into:)`` writes.
  /// - Throws: What ``JSONValueEncoder/encode(_:)`` throws for `value`.
  package func hash<T: Encodable>(_ value: T) throws -> TraceHash {
    try write(value)
    return TraceHash(of: UnsafeBufferPointer(output.bytes.written))
  }

  /// Leaves `value`'s canonical JSON in the output's bytes.
  private func write<T: Encodable>(_ value: T) throws {
    if output.encodeDirectly(value) { return }
    output.forgetArrays()
    output.bytes.removeAll()
    JSONWriter.write(try JSONValueEncoder().encode(value), to: &output.bytes)
  }

  /// Names a value an encoder wrote: the encoder, and which of its values it was.
  package struct ValueMark: Equatable, Sendable {
    let encoder: UInt64
    let number: Int
  }

  /// The last value this encoder wrote (by ``encode(_:into:)`` or ``hash(_:)``), when it
  /// wrote it in one pass; `nil` before the first value or after one it left to
  /// ``JSONValueEncoder``.
  package var lastValue: ValueMark? {
    output.isLastValueDirect
      ? ValueMark(encoder: output.identifier, number: output.valueNumber) : nil
  }

  /// The arrays of Ints of the last value written in the same place in `previous`.
  ///
  /// Each one had as many elements in both values; the change says where it is in the bytes
  /// of both, and which of its blocks of elements did not change (``IntegerArrayChange``).
  /// Empty when `previous` is not the value this encoder wrote just before the last one.
  package func integerArrayChanges(since previous: ValueMark?) -> [IntegerArrayChange] {
    guard let previous, let last = lastValue, previous.encoder == last.encoder,
      previous.number == last.number &- 1
    else { return [] }
    return output.integerArrayChanges()
  }

  /// Whether `value` encodes in one pass, without falling back to ``JSONValueEncoder``: for
  /// tests.
  package func encodesDirectly<T: Encodable>(_ value: T) -> Bool {
    output.encodeDirectly(value)
  }
}

/// Holds a ``CanonicalJSONEncoder``'s output for its copies, and lets go of the containers the
/// output keeps when the last copy goes: each holds the output, so they would keep each other.
private final class CanonicalOutputOwner {
  let output = CanonicalOutput()

  deinit { output.releaseKeptContainers() }
}

/// The bytes being written and the stack of values being encoded, shared by the encoders and
/// containers of one ``CanonicalJSONEncoder``.
///
/// The stacks of slots and members are plain memory it owns: pushed and popped at every value,
/// they cost a fraction of what arrays with their uniqueness checks cost.
private final class CanonicalOutput {
  /// A value being encoded: the top level, a member's value, or an element.
  struct Slot {
    /// What a slot holds so far.
    enum Content: UInt8 {
      case empty
      case object
      case array
      case scalar
    }

    /// Identifies the slot to its encoder and container; never reused within an encoding.
    let token: Int
    /// Where the slot's bytes start.
    let start: Int
    var content = Content.empty
    /// Whether the members so far have strictly increasing keys.
    var isSorted = true
    /// Whether a nested-container call opened the slot: it then ends when its parent's
    /// container is used again, or the parent ends.
    var isNested = false
    /// For an object, the index of its first member in the member stack; for an array, the
    /// number of elements so far.
    var count = 0
  }

  /// A member of an object being encoded: where `"key":value` is in ``bytes``, and the end of
  /// its key (whose characters need no escaping, so that the bytes order keys as their UTF-8
  /// does).
  struct Member {
    let start: Int
    let keyEnd: Int
    var end: Int
  }

  // Only the encoding that owns this output touches it, one access at a time.
  @exclusivity(unchecked) var bytes = OutputBytes()
  /// The bytes of the value before the one in ``bytes``, when it was written directly: where
  /// ``IntegerArrayCache`` copies the blocks of an array of Ints that did not change from.
  @exclusivity(unchecked) private var previousBytes = OutputBytes()
  @exclusivity(unchecked) private var slots: UnsafeMutablePointer<Slot>
  @exclusivity(unchecked) private var slotCapacity = 8
  @exclusivity(unchecked) private var slotCount = 0
  @exclusivity(unchecked) private var members: UnsafeMutablePointer<Member>
  @exclusivity(unchecked) private var memberCapacity = 16
  @exclusivity(unchecked) private var memberCount = 0
  @exclusivity(unchecked) private var scratch = OutputBytes()
  @exclusivity(unchecked) private var nextToken = 0
  /// The arrays of Ints of the previous value, for the next one.
  @exclusivity(unchecked) private var integerArrays = IntegerArrayCache()
  /// Set when the value did something this encoder leaves to ``JSONValueEncoder``.
  @exclusivity(unchecked) private(set) var failed = false
  /// Tells this output's values from other outputs' (``CanonicalJSONEncoder/ValueMark``).
  let identifier = UInt64.random(in: .min ... .max)
  /// Whether the last value was written in one pass.
  @exclusivity(unchecked) private(set) var isLastValueDirect = false
  /// The keyed containers kept for reuse, one per key type (``keyedContainer(_:token:)``),
  /// the box of each, and the token of the slot each writes to now.
  @exclusivity(unchecked) private var containerKeys: [ObjectIdentifier] = []
  @exclusivity(unchecked) private var containerBoxes: [AnyObject] = []
  @exclusivity(unchecked) private(set) var containerTokens: UnsafeMutablePointer<Int>
  /// The keys in the order the last encodings wrote them, each with its `"key":` bytes in
  /// ``keyMemoBytes`` (``writeKey(_:)``).
  @exclusivity(unchecked) private var keyMemo: [String] = []
  @exclusivity(unchecked) private var keyMemoRanges: [Range<Int>] = []
  @exclusivity(unchecked) private var keyMemoBytes = OutputBytes()
  /// The position in ``keyMemo`` of the next key written.
  @exclusivity(unchecked) private var keyPosition = 0

  /// The most key types whose containers are kept.
  private static var containerCapacity: Int { 64 }
  /// The most keys remembered in order.
  private static var keyMemoCapacity: Int { 4096 }

  init() {
    slots = .allocate(capacity: slotCapacity)
    members = .allocate(capacity: memberCapacity)
    containerTokens = .allocate(capacity: Self.containerCapacity)
  }

  deinit {
    slots.deallocate()
    members.deallocate()
    bytes.deallocate()
    previousBytes.deallocate()
    scratch.deallocate()
    keyMemoBytes.deallocate()
    containerTokens.deallocate()
  }

  /// Encodes `value` into ``bytes``; returns whether it could.
  func encodeDirectly<T: Encodable>(_ value: T) -> Bool {
    // The last value's bytes become the previous value's, in place.
    swap(&bytes, &previousBytes)
    bytes.removeAll()
    slotCount = 0
    memberCount = 0
    keyPosition = 0
    failed = false
    integerArrays.startValue()
    isLastValueDirect = false
    if let scalar = JSONValue.scalar(value) {
      JSONWriter.write(scalar, to: &bytes)
      isLastValueDirect = true
      return true
    }
    let token = openSlot()
    do {
      try value.encode(to: CanonicalSlotEncoder(output: self, token: token))
    } catch {
      return false
    }
    guard !failed, settle(token), slots[0].content != .empty else { return false }
    closeSlot()
    isLastValueDirect = !failed
    return !failed
  }

  /// The number of the value being written or written last.
  var valueNumber: Int { integerArrays.valueNumber }

  /// Forgets where the last value's arrays are: its bytes were written another way.
  func forgetArrays() {
    isLastValueDirect = false
    integerArrays.forgetOffsets()
  }

  /// What ``IntegerArrayCache/changes()`` says of the last value.
  func integerArrayChanges() -> [IntegerArrayChange] { integerArrays.changes() }

  /// Gives up on the direct encoding.
  func fail() { failed = true }

  // MARK: Slots

  /// Opens a slot at the end of the bytes; returns its token.
  @inline(__always)
  func openSlot() -> Int {
    if slotCount == slotCapacity { slots = Self.grow(slots, count: slotCount, to: &slotCapacity) }
    nextToken &+= 1
    (slots + slotCount).initialize(to: Slot(token: nextToken, start: bytes.count))
    slotCount += 1
    return nextToken
  }

  /// Opens a slot for a nested container, holding `content`; returns its token.
  func openNested(_ content: Slot.Content) -> Int {
    let token = openSlot()
    let slot = slots + (slotCount - 1)
    slot.pointee.isNested = true
    slot.pointee.content = content
    if content == .object {
      slot.pointee.count = memberCount
      bytes.append(UInt8(ascii: "{"))
    } else {
      bytes.append(UInt8(ascii: "["))
    }
    return token
  }

  /// Ends the nested-container slots above slot `token`; returns whether `token` is then the
  /// innermost slot.
  @inline(__always)
  func settle(_ token: Int) -> Bool {
    while slotCount > 0, slots[slotCount - 1].token != token {
      guard slots[slotCount - 1].isNested else { return false }
      closeSlot()
      // The nested container was a member's value, or an element.
      if slotCount > 0, slots[slotCount - 1].content == .object { endMember() }
    }
    return slotCount > 0
  }

  /// Ends the innermost slot: closes its object or array; an empty one becomes `{}`, as a
  /// value that encodes nothing does with ``JSONValueEncoder``.
  @inline(__always)
  func closeSlot() {
    slotCount -= 1
    let slot = slots[slotCount]
    switch slot.content {
    case .empty:
      bytes.append(UInt8(ascii: "{"))
      bytes.append(UInt8(ascii: "}"))
    case .scalar:
      break
    case .array:
      bytes.append(UInt8(ascii: "]"))
    case .object:
      if !slot.isSorted { sortMembers(from: slot.count, objectStart: slot.start) }
      memberCount = slot.count
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// The innermost slot, if it is the one `token` names, holding `content`; `nil` (and the
  /// encoding failed) otherwise.
  @inline(__always)
  private func current(_ token: Int, _ content: Slot.Content) -> UnsafeMutablePointer<Slot>? {
    guard !failed, settle(token), slots[slotCount - 1].content == content else {
      failed = true
      return nil
    }
    return slots + (slotCount - 1)
  }

  /// Starts an object in slot `token`, which must be current and empty.
  func beginObject(_ token: Int) {
    guard let slot = current(token, .empty) else { return }
    slot.pointee.content = .object
    slot.pointee.count = memberCount
    bytes.append(UInt8(ascii: "{"))
  }

  /// Starts an array in slot `token`, which must be current and empty.
  func beginArray(_ token: Int) {
    guard let slot = current(token, .empty) else { return }
    slot.pointee.content = .array
    bytes.append(UInt8(ascii: "["))
  }

  /// Writes a scalar as the value of slot `token`, which must be current and empty.
  @inline(__always)
  func setScalar(_ token: Int, _ value: JSONValue) {
    guard let slot = current(token, .empty) else { return }
    slot.pointee.content = .scalar
    JSONWriter.write(value, to: &bytes)
  }

  /// Whether slot `token` is current and empty, and so may take a value.
  func isEmpty(_ token: Int) -> Bool {
    current(token, .empty) != nil
  }

  // MARK: Members and elements

  /// Starts the member `key` of the object in slot `token`, writing `"key":`; returns whether
  /// the slot is the current object and the key needs no escaping.
  @inline(__always)
  func beginMember(_ token: Int, _ key: String) -> Bool {
    guard let slot = current(token, .object) else { return false }
    let isFirst = memberCount == slot.pointee.count
    if !isFirst { bytes.append(UInt8(ascii: ",")) }
    let start = bytes.count
    // A key that needs escaping would not sort by its bytes here: `JSONValueEncoder` takes it.
    guard writeKey(key) else {
      failed = true
      return false
    }
    let keyEnd = bytes.count - 1
    if !isFirst, slot.pointee.isSorted, !keyPrecedes(members[memberCount - 1], start, keyEnd) {
      slot.pointee.isSorted = false
    }
    if memberCount == memberCapacity {
      members = Self.grow(members, count: memberCount, to: &memberCapacity)
    }
    (members + memberCount).initialize(to: Member(start: start, keyEnd: keyEnd, end: 0))
    memberCount += 1
    return true
  }

  /// Writes `"key":` for a key that needs no escaping; returns whether it needed none.
  ///
  /// A value of the same type writes the same keys in the same order each time: the ASCII key
  /// at each position is remembered with its bytes, and a key equal to the one remembered
  /// there (the same literal, usually: equal bits) is written from them without checking its
  /// characters again. Equal and of the same UTF-8 length as an ASCII key, a string has its
  /// bytes: the only characters canonically equivalent to ASCII ones (K, ;, `) take more.
  @inline(__always)
  private func writeKey(_ key: String) -> Bool {
    let position = keyPosition
    keyPosition = position &+ 1
    if position < keyMemo.count, keyMemo[position] == key {
      let range = keyMemoRanges[position]
      // The quotes and the colon.
      if key.utf8.count == range.count &- 3 {
        bytes.append(
          UnsafeBufferPointer(start: keyMemoBytes.base + range.lowerBound, count: range.count))
        return true
      }
    }
    let start = bytes.count
    var key = key
    var isASCII = true
    let isPlain = key.withUTF8 { utf8 in
      for byte in utf8 {
        if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
          return false
        }
        if byte >= 0x80 { isASCII = false }
      }
      bytes.append(UInt8(ascii: "\""))
      bytes.append(utf8)
      bytes.append(UInt8(ascii: "\""))
      bytes.append(UInt8(ascii: ":"))
      return true
    }
    if isPlain, isASCII { remember(key, at: position, bytesFrom: start) }
    return isPlain
  }

  /// Remembers `key` as the key at `position`, written at `start` to the end of the bytes.
  private func remember(_ key: String, at position: Int, bytesFrom start: Int) {
    guard position <= keyMemo.count, position < Self.keyMemoCapacity else { return }
    // Keys that change from one value to the next (a dictionary's) would grow the bytes
    // without end: start over past a bound.
    if keyMemoBytes.count > 64 * Self.keyMemoCapacity {
      keyMemo.removeAll()
      keyMemoRanges.removeAll()
      keyMemoBytes.removeAll()
      guard position == 0 else { return }
    }
    let memoStart = keyMemoBytes.count
    keyMemoBytes.append(UnsafeBufferPointer(start: bytes.base + start, count: bytes.count - start))
    let range = memoStart..<keyMemoBytes.count
    if position == keyMemo.count {
      keyMemo.append(key)
      keyMemoRanges.append(range)
    } else {
      keyMemo[position] = key
      keyMemoRanges[position] = range
    }
  }

  /// Ends the member begun last, whose value ends at the end of the bytes.
  @inline(__always)
  func endMember() {
    members[memberCount - 1].end = bytes.count
  }

  /// Starts an element of the array in slot `token`; returns whether the slot is the current
  /// array.
  @inline(__always)
  func beginElement(_ token: Int) -> Bool {
    guard let slot = current(token, .array) else { return false }
    if slot.pointee.count > 0 { bytes.append(UInt8(ascii: ",")) }
    slot.pointee.count += 1
    return true
  }

  /// The number of elements of the array in slot `token`.
  func elementCount(_ token: Int) -> Int {
    for index in (0..<slotCount).reversed() where slots[index].token == token {
      return slots[index].content == .array ? slots[index].count : 0
    }
    return 0
  }

  /// Whether the key of `member` precedes the key written at `start..<keyEnd`: compares
  /// their bytes between the quotes.
  @inline(__always)
  private func keyPrecedes(_ member: Member, _ start: Int, _ keyEnd: Int) -> Bool {
    Self.keyPrecedes(member, Member(start: start, keyEnd: keyEnd, end: 0), in: bytes.base)
  }

  /// Whether the key of `first` precedes the key of `second`, both written in `bytes`:
  /// compares their bytes between the quotes.
  @inline(__always)
  private static func keyPrecedes(
    _ first: Member, _ second: Member, in bytes: UnsafeMutablePointer<UInt8>
  ) -> Bool {
    JSONObject.keyPrecedes(
      UnsafeBufferPointer(start: bytes + first.start + 1, count: first.keyEnd - first.start - 2),
      UnsafeBufferPointer(start: bytes + second.start + 1, count: second.keyEnd - second.start - 2))
  }

  /// Rewrites the members from `firstMember` on in key order, keeping the last member of each
  /// key, as ``JSONValueEncoder`` sorts an object; the members' records are left in key
  /// order, with their old positions.
  private func sortMembers(from firstMember: Int, objectStart: Int) {
    let sorted = members + firstMember
    let count = memberCount - firstMember
    guard count > 1 else { return }
    if count == 2 {
      swapTwoMembers(sorted, objectStart: objectStart)
      return
    }
    // Insertion sort: stable, and fast for the few members of a typical object.
    for index in 1..<count {
      let member = sorted[index]
      var position = index
      while position > 0, Self.keyPrecedes(member, sorted[position - 1], in: bytes.base) {
        sorted[position] = sorted[position - 1]
        position -= 1
      }
      sorted[position] = member
    }
    // The members' bytes, moved aside, then copied back in order.
    let contentStart = objectStart + 1
    scratch.removeAll()
    scratch.append(
      UnsafeBufferPointer(start: bytes.base + contentStart, count: bytes.count - contentStart))
    let moved = scratch.base - contentStart
    var written = contentStart
    integerArrays.beginMoving(contentStart..<bytes.count)
    for index in 0..<count {
      let member = sorted[index]
      // Of equal keys, now adjacent in the order they came, the last one is kept.
      if index + 1 < count, !Self.keyPrecedes(member, sorted[index + 1], in: moved) { continue }
      if written > contentStart {
        bytes.base[written] = UInt8(ascii: ",")
        written += 1
      }
      (bytes.base + written).update(from: moved + member.start, count: member.end - member.start)
      integerArrays.moved(from: member.start, count: member.end - member.start, to: written)
      written += member.end - member.start
    }
    integerArrays.endMoving()
    // Fewer bytes only where a repeated key was dropped.
    bytes.count = written
  }

  /// Puts the two members at `pair`, the last of the object at `objectStart` and out of
  /// order, in key order (only the second of two equal keys kept), with one move of the
  /// larger member and a copy of the smaller aside, where the general case copies both out
  /// and back: most small structs declare a member or two out of key order, and one of them
  /// is often a large array.
  private func swapTwoMembers(_ pair: UnsafeMutablePointer<Member>, objectStart: Int) {
    let first = pair[0]
    let second = pair[1]
    let contentStart = objectStart + 1
    // `second` sorts before `first` (or has the same key): it was out of order.
    integerArrays.beginMoving(contentStart..<bytes.count)
    defer { integerArrays.endMoving() }
    let secondLength = second.end - second.start
    if !Self.keyPrecedes(second, first, in: bytes.base) {
      // Equal keys: the last one is kept.
      (bytes.base + contentStart).update(from: bytes.base + second.start, count: secondLength)
      integerArrays.moved(from: second.start, count: secondLength, to: contentStart)
      bytes.count = contentStart + secondLength
      return
    }
    let firstLength = first.end - first.start
    let comma = contentStart + secondLength
    scratch.removeAll()
    if secondLength <= firstLength {
      // The second aside, the first moved up past where the second and a comma go.
      scratch.append(UnsafeBufferPointer(start: bytes.base + second.start, count: secondLength))
      memmove(bytes.base + comma + 1, bytes.base + first.start, firstLength)
      (bytes.base + contentStart).update(from: scratch.base, count: secondLength)
    } else {
      // The first aside, the second moved down to the start.
      scratch.append(UnsafeBufferPointer(start: bytes.base + first.start, count: firstLength))
      memmove(bytes.base + contentStart, bytes.base + second.start, secondLength)
      (bytes.base + comma + 1).update(from: scratch.base, count: firstLength)
    }
    bytes.base[comma] = UInt8(ascii: ",")
    integerArrays.moved(from: second.start, count: secondLength, to: contentStart)
    integerArrays.moved(from: first.start, count: firstLength, to: comma + 1)
    bytes.count = comma + 1 + firstLength
  }

  private static func grow<Element>(
    _ pointer: UnsafeMutablePointer<Element>, count: Int, to capacity: inout Int
  ) -> UnsafeMutablePointer<Element> {
    capacity *= 2
    let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
    grown.moveInitialize(from: pointer, count: count)
    pointer.deallocate()
    return grown
  }

  // MARK: Keyed containers

  /// Lets go of the kept containers, which hold this output: its owner calls it as it goes.
  func releaseKeptContainers() {
    containerKeys.removeAll()
    containerBoxes.removeAll()
  }

  /// A keyed container writing the object of slot `token`: the one kept for `Key` when nothing
  /// else holds it, a new one otherwise.
  ///
  /// Making a keyed container looks up the generic metadata of its type and of its box, and
  /// allocates the box: more than a small struct's members cost. One per key type is kept and
  /// handed out again while no one else holds a reference to its box, which is known exactly
  /// (`isKnownUniquelyReferenced`): a value that kept its container past its `encode(to:)`
  /// still holds it, and a new container is made for the next value. The kept container
  /// finds its slot's token here.
  func keyedContainer<Key: CodingKey>(_: Key.Type, token: Int) -> KeyedEncodingContainer<Key> {
    let key = ObjectIdentifier(Key.self)
    var entry = 0
    while entry < containerKeys.count {
      if containerKeys[entry] == key {
        guard isKnownUniquelyReferenced(&containerBoxes[entry]) else { break }
        containerTokens[entry] = token
        // The container is its box (checked when it was kept).
        return unsafeBitCast(containerBoxes[entry], to: KeyedEncodingContainer<Key>.self)
      }
      entry += 1
    }
    if entry == containerKeys.count, entry < Self.containerCapacity {
      let container = KeyedEncodingContainer(
        CanonicalObjectEncoder<Key>(output: self, token: 0, entry: entry))
      if let box = Self.box(of: container) {
        containerKeys.append(key)
        containerBoxes.append(box)
        containerTokens[entry] = token
        return container
      }
    }
    return KeyedEncodingContainer(CanonicalObjectEncoder<Key>(output: self, token: token))
  }

  /// The box of `container`, when the container is that reference alone; `nil` otherwise.
  ///
  /// `KeyedEncodingContainer` holds its box as its only stored property. That is checked here
  /// rather than assumed: its size is a reference's, its mirror shows one child, an object, and
  /// its bits are that object's address. A container of any other layout is not kept.
  private static func box<Key>(of container: KeyedEncodingContainer<Key>) -> AnyObject? {
    guard MemoryLayout<KeyedEncodingContainer<Key>>.size == MemoryLayout<AnyObject>.size,
      MemoryLayout<KeyedEncodingContainer<Key>>.alignment == MemoryLayout<AnyObject>.alignment
    else { return nil }
    let children = Mirror(reflecting: container).children
    guard children.count == 1, let child = children.first?.value,
      type(of: child) is AnyClass
    else { return nil }
    let box = child as AnyObject
    let bits = unsafeBitCast(container, to: UnsafeRawPointer.self)
    guard bits == UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque()) else { return nil }
    return box
  }

  // MARK: Values

  /// Writes a scalar's canonical JSON.
  @inline(__always)
  func write(_ value: JSONValue) {
    JSONWriter.write(value, to: &bytes)
  }

  /// Writes an integer, without going through a ``JSONValue``: in place, as
  /// `JSONWriter.writeInteger` writes it.
  @inline(__always)
  func write(integer value: Int64) {
    bytes.write(maximumCount: ByteCursor.maximumIntegerCount) { $0.write(Int(value)) }
  }

  /// Writes `true` or `false`, without going through a ``JSONValue``.
  @inline(__always)
  func write(bool value: Bool) {
    let literal: StaticString = value ? "true" : "false"
    literal.withUTF8Buffer { bytes.append($0) }
  }

  /// Writes `value`, a scalar directly, anything else in a new slot.
  @inline(__always)
  func writeValue<T: Encodable>(_ value: T) throws {
    if let scalar = JSONValue.scalar(value) {
      JSONWriter.write(scalar, to: &bytes)
      return
    }
    // An array of Ints, as large states hold, in one loop: the bytes its `Codable`
    // conformance gives, without a container call and two value-witness calls per element.
    if T.self == [Int].self {
      withUnsafePointer(to: value) {
        $0.withMemoryRebound(to: [Int].self, capacity: 1) { writeIntegers($0.pointee) }
      }
      return
    }
    let token = openSlot()
    try value.encode(to: CanonicalSlotEncoder(output: self, token: token))
    guard !failed, settle(token) else {
      failed = true
      return
    }
    closeSlot()
  }
}

extension CanonicalOutput {
  /// Writes `values` as a JSON array of integers, from the previous value's array in the
  /// same place where their elements are equal (``IntegerArrayCache``).
  func writeIntegers(_ values: [Int]) {
    integerArrays.write(
      values, to: &bytes, previousValue: UnsafeBufferPointer(previousBytes.written))
  }
}

// MARK: - Encoder and containers

/// The encoder of one slot; also its single-value container.
private struct CanonicalSlotEncoder: Encoder, SingleValueEncodingContainer, JSONScalarContainer {
  let output: CanonicalOutput
  let token: Int

  var codingPath: [any CodingKey] {
    // Only `JSONValueEncoder` keeps track of paths.
    output.fail()
    return []
  }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    output.beginObject(token)
    return output.keyedContainer(Key.self, token: token)
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    output.beginArray(token)
    return CanonicalArrayEncoder(output: output, token: token)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  func put(_ value: JSONValue) { output.setScalar(token, value) }

  mutating func encode(_ value: Int128) { output.fail() }
  mutating func encode(_ value: UInt128) { output.fail() }

  mutating func encode<T: Encodable>(_ value: T) throws {
    if let scalar = JSONValue.scalar(value) { return put(scalar) }
    guard output.isEmpty(token) else { return }
    // The value encodes itself into this same slot, as with `JSONValueEncoder`.
    try value.encode(to: self)
  }
}

/// A keyed container: writes an object's members.
private struct CanonicalObjectEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let output: CanonicalOutput
  /// The token of the slot it writes to, unless it is a container the output keeps.
  private let ownToken: Int
  /// For a container the output keeps, its entry there, which holds its slot's token now;
  /// -1 for others.
  private let entry: Int

  /// The token of the slot it writes to.
  private var token: Int { entry < 0 ? ownToken : output.containerTokens[entry] }

  /// A container writing to slot `token`, or, with an `entry`, one the output keeps.
  init(output: CanonicalOutput, token: Int, entry: Int = -1) {
    self.output = output
    self.ownToken = token
    self.entry = entry
  }

  var codingPath: [any CodingKey] {
    output.fail()
    return []
  }

  @inline(__always)
  private func append(_ key: Key, _ value: JSONValue) {
    guard output.beginMember(token, key.stringValue) else { return }
    output.write(value)
    output.endMember()
  }

  @inline(__always)
  private func append(_ key: Key, integer value: Int64) {
    guard output.beginMember(token, key.stringValue) else { return }
    output.write(integer: value)
    output.endMember()
  }

  mutating func encodeNil(forKey key: Key) { append(key, .null) }
  mutating func encode(_ value: String, forKey key: Key) { append(key, .string(value)) }
  mutating func encode(_ value: Double, forKey key: Key) { append(key, JSONValue(encoding: value)) }
  mutating func encode(_ value: Float, forKey key: Key) { append(key, JSONValue(encoding: value)) }
  mutating func encode(_ value: Int, forKey key: Key) { append(key, integer: Int64(value)) }
  mutating func encode(_ value: Int8, forKey key: Key) { append(key, integer: Int64(value)) }
  mutating func encode(_ value: Int16, forKey key: Key) { append(key, integer: Int64(value)) }
  mutating func encode(_ value: Int32, forKey key: Key) { append(key, integer: Int64(value)) }
  mutating func encode(_ value: Int64, forKey key: Key) { append(key, integer: value) }
  mutating func encode(_ value: UInt8, forKey key: Key) { append(key, integer: Int64(value)) }
  mutating func encode(_ value: UInt16, forKey key: Key) { append(key, integer: Int64(value)) }
  mutating func encode(_ value: UInt32, forKey key: Key) { append(key, integer: Int64(value)) }

  mutating func encode(_ value: Bool, forKey key: Key) {
    guard output.beginMember(token, key.stringValue) else { return }
    output.write(bool: value)
    output.endMember()
  }

  mutating func encode(_ value: UInt, forKey key: Key) {
    append(key, JSONValue(integer: UInt64(value)))
  }

  mutating func encode(_ value: UInt64, forKey key: Key) {
    append(key, JSONValue(integer: value))
  }

  mutating func encode(_ value: Int128, forKey key: Key) { output.fail() }
  mutating func encode(_ value: UInt128, forKey key: Key) { output.fail() }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    guard output.beginMember(token, key.stringValue) else { return }
    try output.writeValue(value)
    output.endMember()
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = output.beginMember(token, key.stringValue) ? output.openNested(.object) : 0
    return KeyedEncodingContainer(CanonicalObjectEncoder<NestedKey>(output: output, token: nested))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = output.beginMember(token, key.stringValue) ? output.openNested(.array) : 0
    return CanonicalArrayEncoder(output: output, token: nested)
  }

  mutating func superEncoder() -> any Encoder {
    output.fail()
    return CanonicalSlotEncoder(output: output, token: 0)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    output.fail()
    return CanonicalSlotEncoder(output: output, token: 0)
  }
}

/// An unkeyed container: writes an array's elements.
private struct CanonicalArrayEncoder: UnkeyedEncodingContainer {
  let output: CanonicalOutput
  let token: Int

  var codingPath: [any CodingKey] {
    output.fail()
    return []
  }

  var count: Int { output.elementCount(token) }

  @inline(__always)
  private func append(_ value: JSONValue) {
    guard output.beginElement(token) else { return }
    output.write(value)
  }

  @inline(__always)
  private func append(integer value: Int64) {
    guard output.beginElement(token) else { return }
    output.write(integer: value)
  }

  mutating func encodeNil() { append(.null) }
  mutating func encode(_ value: String) { append(.string(value)) }
  mutating func encode(_ value: Double) { append(JSONValue(encoding: value)) }
  mutating func encode(_ value: Float) { append(JSONValue(encoding: value)) }
  mutating func encode(_ value: Int) { append(integer: Int64(value)) }
  mutating func encode(_ value: Int8) { append(integer: Int64(value)) }
  mutating func encode(_ value: Int16) { append(integer: Int64(value)) }
  mutating func encode(_ value: Int32) { append(integer: Int64(value)) }
  mutating func encode(_ value: Int64) { append(integer: value) }
  mutating func encode(_ value: UInt) { append(JSONValue(integer: UInt64(value))) }
  mutating func encode(_ value: UInt8) { append(integer: Int64(value)) }
  mutating func encode(_ value: UInt16) { append(integer: Int64(value)) }
  mutating func encode(_ value: UInt32) { append(integer: Int64(value)) }
  mutating func encode(_ value: UInt64) { append(JSONValue(integer: value)) }

  mutating func encode(_ value: Bool) {
    guard output.beginElement(token) else { return }
    output.write(bool: value)
  }

  mutating func encode(_ value: Int128) { output.fail() }
  mutating func encode(_ value: UInt128) { output.fail() }

  mutating func encode<T: Encodable>(_ value: T) throws {
    guard output.beginElement(token) else { return }
    try output.writeValue(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = output.beginElement(token) ? output.openNested(.object) : 0
    return KeyedEncodingContainer(CanonicalObjectEncoder<NestedKey>(output: output, token: nested))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = output.beginElement(token) ? output.openNested(.array) : 0
    return CanonicalArrayEncoder(output: output, token: nested)
  }

  mutating func superEncoder() -> any Encoder {
    output.fail()
    return CanonicalSlotEncoder(output: output, token: 0)
  }
}

/// The bytes of a ``CanonicalOutput``: plain memory it owns, so that appending a byte is a
/// store and a bounds check, not an array's uniqueness and capacity checks.
struct OutputBytes: JSONByteSink {
  /// Where the bytes start; valid until the next append or ``deallocate()``.
  private(set) var base: UnsafeMutablePointer<UInt8>
  private var capacity = 256
  /// The number of bytes written; set it lower to drop the bytes after.
  var count = 0

  init() {
    base = .allocate(capacity: capacity)
  }

  /// The bytes written so far, valid until the next append or ``deallocate()``.
  var written: UnsafeMutableBufferPointer<UInt8> {
    UnsafeMutableBufferPointer(start: base, count: count)
  }

  /// Frees the memory; the bytes are not used after.
  func deallocate() { base.deallocate() }

  /// Drops every byte, keeping the memory.
  mutating func removeAll() { count = 0 }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    if count == capacity { grow(toHold: 1) }
    base[count] = byte
    count += 1
  }

  /// Appends `bytes` in one copy.
  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    if capacity - count < bytes.count { grow(toHold: bytes.count) }
    (base + count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  mutating func append<Bytes: Collection<UInt8>>(contentsOf bytes: Bytes) {
    let copied: Void? = bytes.withContiguousStorageIfAvailable { append($0) }
    if copied == nil {
      for byte in bytes { append(byte) }
    }
  }

  /// Appends what `body` writes through a cursor, at most `maximumCount` bytes, in place.
  mutating func write(maximumCount: Int, _ body: (inout ByteCursor) -> Void) {
    if capacity - count < maximumCount { grow(toHold: maximumCount) }
    let start = base + count
    var cursor = ByteCursor(start)
    body(&cursor)
    let written = cursor.pointer - start
    precondition(written <= maximumCount, "wrote past the bytes reserved")
    count += written
  }

  private mutating func grow(toHold extra: Int) {
    while capacity - count < extra { capacity *= 2 }
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    grown.moveInitialize(from: base, count: count)
    base.deallocate()
    base = grown
  }
}
