/// A strict RFC 8259 parser from UTF-8 bytes to ``JSONValue``.
///
/// It is iterative, so nesting costs heap, not stack: documents nested deeper than
/// ``maximumDepth`` are rejected with ``JSONParseError/tooDeep(column:limit:)`` instead of
/// overflowing anything. Keep one parser to parse many documents (the lines of a trace): its
/// working storage is reused from one ``parse(_:)`` to the next.
package struct JSONParser: ~Copyable {
  /// How deeply arrays and objects may nest.
  static let maximumDepth = 512

  /// An array or object being parsed.
  private struct Frame {
    /// Whether this is an object (or else an array).
    var isObject: Bool
    /// Whether the keys parsed so far are strictly increasing.
    var isSorted = true
    /// Where this container's elements or members start on their stack.
    var start: Int
    /// The byte offset of the opening bracket.
    var offset: Int
  }

  /// An object member being parsed, with where its key is in the input.
  private struct Member {
    var member: (key: String, value: JSONValue)
    /// Where the key's bytes start in the input, after its opening quote.
    var keyStart: Int
    /// How many bytes the key has in the input; -1 if it has escapes.
    var keyCount: Int
    /// The key's first 8 bytes, zero-padded, as a big-endian integer: comparing prefixes
    /// compares keys, unless the prefixes are equal.
    var keyPrefix: UInt64
  }

  /// A recently parsed short string, with its bytes zero-padded to 16.
  private struct CachedString {
    var low: UInt64
    var high: UInt64
    var count: Int
    var string: String
  }

  /// How many strings the direct-mapped string cache holds.
  private static let stringCacheSize = 256

  /// What the grammar allows where a value must start, for error messages.
  private enum ValueContext {
    case document
    case firstElement
    case elementAfterComma
    case memberValue

    var expected: String {
      switch self {
      case .document: "a value"
      case .firstElement: "a value or ']'"
      case .elementAfterComma: "a value after ','"
      case .memberValue: "a value after ':'"
      }
    }
  }

  private var base: UnsafeRawPointer?
  private var end = 0
  private var offset = 0
  /// The open arrays and objects, innermost last.
  private var frames: [Frame] = []
  /// The bytes of a string with escapes, as it is decoded.
  private var scratch: [UInt8] = []
  /// Whether the last string parsed had escapes.
  private var lastStringHadEscapes = false
  /// The first 8 bytes of the last string parsed without escapes, as ``Member/keyPrefix``.
  private var lastStringPrefix: UInt64 = 0
  /// Short strings parsed recently, by their bytes.
  ///
  /// Keys and values that repeat (from one trace line to the next) are then neither validated
  /// nor allocated again. Created once enough strings were parsed for it to pay off.
  private var stringCache: UnsafeMutablePointer<CachedString>?
  /// How many strings were parsed before the string cache was created.
  private var uncachedStringCount = 0

  // The elements of all open arrays and the members of all open objects, innermost last, in
  // memory managed here so that closing a container moves them into its array instead of
  // copying them (retaining) and removing them (releasing).
  private var elements: UnsafeMutablePointer<JSONValue>?
  private var elementCount = 0
  private var elementCapacity = 0
  private var members: UnsafeMutablePointer<Member>?
  private var memberCount = 0
  private var memberCapacity = 0

  /// A parser with empty working storage.
  package init() {}

  deinit {
    stringCache?.deinitialize(count: Self.stringCacheSize)
    stringCache?.deallocate()
    elements?.deinitialize(count: elementCount)
    elements?.deallocate()
    members?.deinitialize(count: memberCount)
    members?.deallocate()
  }

  /// Parses `buffer` as one JSON document: a value with optional whitespace around it.
  package mutating func parse(_ buffer: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue
  {
    base = buffer.baseAddress
    end = buffer.baseAddress == nil ? 0 : buffer.count
    offset = 0
    defer {
      base = nil
      frames.removeAll(keepingCapacity: true)
      elements?.deinitialize(count: elementCount)
      elementCount = 0
      members?.deinitialize(count: memberCount)
      memberCount = 0
    }
    skipWhitespace()
    let value = try parseValue()
    skipWhitespace()
    guard offset == end else { throw .trailingCharacters(column: offset + 1) }
    return value
  }

  /// Parses the value that starts at byte `start` of `buffer` (no whitespace before it) and
  /// returns it with the offset just after it, ignoring what follows.
  ///
  /// For decoders that walk a document of known shape and parse only the values in it.
  package mutating func parseValue(in buffer: UnsafeRawBufferPointer, at start: Int)
    throws(JSONParseError) -> (value: JSONValue, end: Int)
  {
    base = buffer.baseAddress
    end = buffer.baseAddress == nil ? 0 : buffer.count
    offset = start
    defer {
      base = nil
      frames.removeAll(keepingCapacity: true)
      elements?.deinitialize(count: elementCount)
      elementCount = 0
      members?.deinitialize(count: memberCount)
      memberCount = 0
    }
    let value = try parseValue()
    return (value, offset)
  }

  // MARK: - Values

  /// Parses the value that starts at `offset` (after whitespace) and leaves `offset` just
  /// after it.
  private mutating func parseValue() throws(JSONParseError) -> JSONValue {
    let baseDepth = frames.count
    var context = ValueContext.document
    nextValue: while true {
      var value: JSONValue
      guard offset < end else {
        throw .unexpectedEnd(column: end + 1, expected: context.expected)
      }
      switch byte(at: offset) {
      case UInt8(ascii: "{"):
        try checkDepth()
        let brace = offset
        offset += 1
        skipWhitespace()
        if offset < end && byte(at: offset) == UInt8(ascii: "}") {
          offset += 1
          value = .object(JSONObject())
        } else {
          frames.append(Frame(isObject: true, start: memberCount, offset: brace))
          try parseKey(expected: "a string key or '}'")
          context = .memberValue
          continue nextValue
        }
      case UInt8(ascii: "["):
        try checkDepth()
        let bracket = offset
        offset += 1
        skipWhitespace()
        if offset < end && byte(at: offset) == UInt8(ascii: "]") {
          offset += 1
          value = .array([])
        } else {
          frames.append(Frame(isObject: false, start: elementCount, offset: bracket))
          context = .firstElement
          continue nextValue
        }
      case UInt8(ascii: "\""):
        value = .string(try parseString())
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        value = try parseNumber()
      case UInt8(ascii: "t"):
        try parseLiteral(0x6575_7274, "true", length: 4)
        value = .bool(true)
      case UInt8(ascii: "f"):
        // "fals", then the "e".
        try parseLiteral(0x736C_6166, "false", length: 5)
        value = .bool(false)
      case UInt8(ascii: "n"):
        try parseLiteral(0x6C6C_756E, "null", length: 4)
        value = .null
      default:
        throw unexpectedCharacter(at: offset, expected: context.expected)
      }

      // Add the value to its container, closing the containers that end after it.
      while frames.count > baseDepth {
        skipWhitespace()
        if frames[frames.count - 1].isObject {
          members.unsafelyUnwrapped[memberCount - 1].member.value = consume value
          guard offset < end else {
            throw .unexpectedEnd(column: end + 1, expected: "',' or '}' after object member")
          }
          switch byte(at: offset) {
          case UInt8(ascii: ","):
            offset += 1
            skipWhitespace()
            try parseKey(expected: "a string key after ','")
            context = .memberValue
            continue nextValue
          case UInt8(ascii: "}"):
            offset += 1
            value = try closeObject()
          default:
            throw unexpectedCharacter(at: offset, expected: "',' or '}' after object member")
          }
        } else {
          pushElement(consume value)
          guard offset < end else {
            throw .unexpectedEnd(column: end + 1, expected: "',' or ']' after array element")
          }
          switch byte(at: offset) {
          case UInt8(ascii: ","):
            offset += 1
            skipWhitespace()
            context = .elementAfterComma
            continue nextValue
          case UInt8(ascii: "]"):
            offset += 1
            value = closeArray()
          default:
            throw unexpectedCharacter(at: offset, expected: "',' or ']' after array element")
          }
        }
      }
      return value
    }
  }

  /// Throws if an array or object opening at `offset` would nest too deeply.
  @inline(__always)
  private func checkDepth() throws(JSONParseError) {
    if frames.count >= Self.maximumDepth {
      throw .tooDeep(column: offset + 1, limit: Self.maximumDepth)
    }
  }

  /// Parses an object member's key and the colon after it, and pushes the member with a
  /// `null` value for now.
  private mutating func parseKey(expected: String) throws(JSONParseError) {
    guard offset < end else { throw .unexpectedEnd(column: end + 1, expected: expected) }
    guard byte(at: offset) == UInt8(ascii: "\"") else {
      throw unexpectedCharacter(at: offset, expected: expected)
    }
    let keyStart = offset + 1
    let key = try parseString()
    let keyCount = lastStringHadEscapes ? -1 : offset - 1 - keyStart
    if memberCount == memberCapacity { growMembers() }
    let members = members.unsafelyUnwrapped
    members.advanced(by: memberCount).initialize(
      to: Member(
        member: (key, .null), keyStart: keyStart, keyCount: keyCount,
        keyPrefix: lastStringPrefix))
    memberCount += 1
    let frame = frames.count - 1
    if frames[frame].isSorted && memberCount - 1 > frames[frame].start
      && compareKeys(memberCount - 2, memberCount - 1) >= 0
    {
      frames[frame].isSorted = false
    }
    skipWhitespace()
    guard offset < end else {
      throw .unexpectedEnd(column: end + 1, expected: "':' after object key")
    }
    guard byte(at: offset) == UInt8(ascii: ":") else {
      throw unexpectedCharacter(at: offset, expected: "':' after object key")
    }
    offset += 1
    skipWhitespace()
  }

  /// Compares the keys of the members at `index1` and `index2` of the member stack by their
  /// UTF-8 bytes: negative, zero or positive.
  @inline(__always)
  private func compareKeys(_ index1: Int, _ index2: Int) -> Int {
    let members = members.unsafelyUnwrapped
    // Keys without escapes whose first 8 bytes differ: the common case.
    if members[index1].keyCount >= 0 && members[index2].keyCount >= 0 {
      let prefix1 = members[index1].keyPrefix
      let prefix2 = members[index2].keyPrefix
      if prefix1 != prefix2 { return prefix1 < prefix2 ? -1 : 1 }
    }
    return compareWholeKeys(index1, index2)
  }

  @inline(never)
  private func compareWholeKeys(_ index1: Int, _ index2: Int) -> Int {
    let members = members.unsafelyUnwrapped
    let count1 = members[index1].keyCount
    let count2 = members[index2].keyCount
    if count1 >= 0 && count2 >= 0 {
      let base = base.unsafelyUnwrapped
      return Self.compare(
        UnsafeRawBufferPointer(start: base + members[index1].keyStart, count: count1),
        UnsafeRawBufferPointer(start: base + members[index2].keyStart, count: count2))
    }
    var key1 = members[index1].member.key
    var key2 = members[index2].member.key
    return key1.withUTF8 { bytes1 in
      key2.withUTF8 { bytes2 in Self.compare(UnsafeRawBufferPointer(bytes1), .init(bytes2)) }
    }
  }

  /// Compares two byte strings lexicographically: negative, zero or positive.
  @inline(__always)
  private static func compare(_ bytes1: UnsafeRawBufferPointer, _ bytes2: UnsafeRawBufferPointer)
    -> Int
  {
    for index in 0..<min(bytes1.count, bytes2.count) where bytes1[index] != bytes2[index] {
      return bytes1[index] < bytes2[index] ? -1 : 1
    }
    return bytes1.count - bytes2.count
  }

  /// Pushes an array element.
  @inline(__always)
  private mutating func pushElement(_ value: consuming JSONValue) {
    if elementCount == elementCapacity { growElements() }
    elements.unsafelyUnwrapped.advanced(by: elementCount).initialize(to: value)
    elementCount += 1
  }

  private mutating func growElements() {
    Self.grow(&elements, count: elementCount, capacity: &elementCapacity)
  }

  private mutating func growMembers() {
    Self.grow(&members, count: memberCount, capacity: &memberCapacity)
  }

  /// Doubles a stack's storage (16 at first), moving its `count` initialized values over.
  private static func grow<Value>(
    _ storage: inout UnsafeMutablePointer<Value>?, count: Int, capacity: inout Int
  ) {
    let newCapacity = max(16, capacity * 2)
    let new = UnsafeMutablePointer<Value>.allocate(capacity: newCapacity)
    if let old = storage {
      new.moveInitialize(from: old, count: count)
      old.deallocate()
    }
    storage = new
    capacity = newCapacity
  }

  /// Ends the innermost array, moving its elements off the stack.
  private mutating func closeArray() -> JSONValue {
    let start = frames.removeLast().start
    let elements = elements.unsafelyUnwrapped
    let array = Array(Moving(from: elements + start, to: elements + elementCount))
    elementCount = start
    return .array(array)
  }

  /// Ends the innermost object, moving its members off the stack: sorts them and rejects a
  /// repeated key.
  private mutating func closeObject() throws(JSONParseError) -> JSONValue {
    let frame = frames.removeLast()
    let members = members.unsafelyUnwrapped
    if !frame.isSorted {
      // Insertion sort: objects are small, and often nearly sorted.
      for index in frame.start + 1..<memberCount {
        var position = index
        while position > frame.start && compareKeys(position, position - 1) < 0 {
          let member = members.advanced(by: position).move()
          members.advanced(by: position).moveInitialize(from: members + position - 1, count: 1)
          members.advanced(by: position - 1).initialize(to: member)
          position -= 1
        }
      }
      for index in frame.start + 1..<memberCount where compareKeys(index - 1, index) == 0 {
        throw duplicateKeyError(objectOffset: frame.offset)
      }
    }
    let object = Array(
      Moving(from: members + frame.start, to: members + memberCount).lazy.map(\.member))
    memberCount = frame.start
    return .object(JSONObject(sortedUniqueMembers: object))
  }

  /// The error for the object at `objectOffset`, already parsed, which repeats a key: finds
  /// the first member whose key an earlier member has.
  private func duplicateKeyError(objectOffset: Int) -> JSONParseError {
    var scanner = JSONParser()
    scanner.base = base
    scanner.end = end
    scanner.offset = objectOffset + 1
    var seen: Set<[UInt8]> = []
    do {
      while true {
        scanner.skipWhitespace()
        let keyOffset = scanner.offset
        let key = try scanner.parseString()
        if !seen.insert(Array(key.utf8)).inserted {
          return .duplicateKey(column: keyOffset + 1, key: key)
        }
        scanner.skipWhitespace()
        scanner.offset += 1  // ':'
        scanner.skipWhitespace()
        _ = try scanner.parseValue()
        scanner.skipWhitespace()
        scanner.offset += 1  // ',' or '}'
      }
    } catch {
      // Unreachable: the object parsed once already.
      return error
    }
  }

  // MARK: - Literals

  /// Parses `true`, `false` or `null` at `offset`, whose first four bytes, read as a
  /// little-endian integer, are `prefix`, and which is `length` bytes long.
  @inline(__always)
  private mutating func parseLiteral(_ prefix: UInt32, _ literal: String, length: Int)
    throws(JSONParseError)
  {
    if offset + length <= end
      && UInt32(
        littleEndian: base.unsafelyUnwrapped.loadUnaligned(
          fromByteOffset: offset, as: UInt32.self)) == prefix
      && (length == 4 || byte(at: offset + 4) == UInt8(ascii: "e"))
    {
      offset += length
      return
    }
    var index = offset
    for expected in literal.utf8 {
      guard index < end else { throw .unexpectedEnd(column: end + 1, expected: "'\(literal)'") }
      guard byte(at: index) == expected else {
        throw unexpectedCharacter(at: index, expected: "'\(literal)'")
      }
      index += 1
    }
    offset = index
  }

  // MARK: - Strings

  /// Parses the string whose opening quote is at `offset`.
  private mutating func parseString() throws(JSONParseError) -> String {
    let start = offset + 1
    var index = start
    while true {
      index = skipPlainBytes(from: index)
      guard index < end else {
        throw .unexpectedEnd(column: end + 1, expected: "'\"' to close the string")
      }
      let byte = byte(at: index)
      if byte == UInt8(ascii: "\"") {
        offset = index + 1
        lastStringHadEscapes = false
        return makeString(start: start, count: index - start)
      }
      if byte == UInt8(ascii: "\\") {
        return try parseEscapedString(start: start, escape: index)
      }
      if byte < 0x20 { throw .unescapedControlCharacter(column: index + 1, byte: byte) }
      index = try validateUTF8(at: index)
    }
  }

  /// The string of the `count` validated bytes at `start`, from the cache if it is there.
  @inline(__always)
  private mutating func makeString(start: Int, count: Int) -> String {
    let base = base.unsafelyUnwrapped
    // The first 16 bytes, as little-endian integers, zero-padded.
    var low: UInt64 = 0
    var high: UInt64 = 0
    if start + 16 <= end {
      low = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: UInt64.self))
      high = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self))
    } else {
      for index in 0..<min(count, 16) {
        let byte = UInt64(self.byte(at: start + index))
        if index < 8 { low |= byte << (8 * index) } else { high |= byte << (8 * (index - 8)) }
      }
    }
    if count < 8 {
      low &= (1 << (8 * count)) - 1
      high = 0
    } else if count < 16 {
      high &= (1 << (8 * (count - 8))) - 1
    }
    lastStringPrefix = low.byteSwapped

    guard count <= 16, let cache = stringCache else {
      if stringCache == nil {
        uncachedStringCount += 1
        if uncachedStringCount == 64 { createStringCache() }
      }
      return String(
        decoding: UnsafeRawBufferPointer(start: base + start, count: count), as: UTF8.self)
    }
    var hash = (low &+ UInt64(count)) ^ (high &* 0xC2B2_AE3D_27D4_EB4F)
    hash = hash &* 0x9E37_79B9_7F4A_7C15
    let entry = cache + Int(truncatingIfNeeded: hash >> 56) % Self.stringCacheSize
    if entry.pointee.count == count && entry.pointee.low == low && entry.pointee.high == high {
      return entry.pointee.string
    }
    let string = String(
      decoding: UnsafeRawBufferPointer(start: base + start, count: count), as: UTF8.self)
    entry.pointee = CachedString(low: low, high: high, count: count, string: string)
    return string
  }

  private mutating func createStringCache() {
    let cache = UnsafeMutablePointer<CachedString>.allocate(capacity: Self.stringCacheSize)
    cache.initialize(
      repeating: CachedString(low: 0, high: 0, count: -1, string: ""), count: Self.stringCacheSize)
    stringCache = cache
  }

  /// The offset of the first byte at or after `index` that is a quote, a backslash, a control
  /// character or not ASCII; `end` if there is none.
  @inline(__always)
  private func skipPlainBytes(from index: Int) -> Int {
    let base = base.unsafelyUnwrapped
    var index = index
    while index + 8 <= end {
      let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let special = Self.specialBytes(word)
      if special != 0 { return index + special.trailingZeroBitCount / 8 }
      index += 8
    }
    while index < end {
      let byte = base.load(fromByteOffset: index, as: UInt8.self)
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 {
        break
      }
      index += 1
    }
    return index
  }

  /// A mask whose lowest set bit is the high bit of the first of the 8 bytes in `word` (read
  /// little-endian) that is a quote, a backslash, below 0x20 or above 0x7F; zero if none is.
  ///
  /// Bits above the lowest may be false positives: the borrows of the subtractions carry
  /// into higher bytes only.
  @inline(__always)
  private static func specialBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* 0x22)
    let backslashes = word ^ (ones &* 0x5C)
    let hasQuote = (quotes &- ones) & ~quotes
    let hasBackslash = (backslashes &- ones) & ~backslashes
    let hasControl = (word &- ones &* 0x20) & ~word
    return (hasQuote | hasBackslash | hasControl | word) & highs
  }

  /// Parses the rest of a string that has an escape at `escape`, decoding into `scratch`.
  private mutating func parseEscapedString(start: Int, escape: Int) throws(JSONParseError)
    -> String
  {
    let base = base.unsafelyUnwrapped
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: escape - start))
    var index = escape
    while true {
      let runStart = index
      index = skipPlainBytes(from: index)
      if runStart < index {
        scratch.append(
          contentsOf: UnsafeRawBufferPointer(start: base + runStart, count: index - runStart))
      }
      guard index < end else {
        throw .unexpectedEnd(column: end + 1, expected: "'\"' to close the string")
      }
      let byte = byte(at: index)
      if byte == UInt8(ascii: "\"") {
        offset = index + 1
        lastStringHadEscapes = true
        return String(decoding: scratch, as: UTF8.self)
      }
      if byte == UInt8(ascii: "\\") {
        index = try decodeEscape(at: index)
      } else if byte < 0x20 {
        throw .unescapedControlCharacter(column: index + 1, byte: byte)
      } else {
        let next = try validateUTF8(at: index)
        scratch.append(contentsOf: UnsafeRawBufferPointer(start: base + index, count: next - index))
        index = next
      }
    }
  }

  /// Decodes the escape whose backslash is at `index` into `scratch`; returns the offset after
  /// it.
  private mutating func decodeEscape(at index: Int) throws(JSONParseError) -> Int {
    guard index + 1 < end else {
      throw .unexpectedEnd(column: end + 1, expected: "an escape character after '\\'")
    }
    let decoded: UInt8
    switch byte(at: index + 1) {
    case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
    case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
    case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
    case UInt8(ascii: "b"): decoded = 0x08
    case UInt8(ascii: "f"): decoded = 0x0C
    case UInt8(ascii: "n"): decoded = 0x0A
    case UInt8(ascii: "r"): decoded = 0x0D
    case UInt8(ascii: "t"): decoded = 0x09
    case UInt8(ascii: "u"): return try decodeUnicodeEscape(at: index)
    case let other:
      let reason =
        (0x20..<0x7F).contains(other)
        ? "unknown escape '\\\(Character(Unicode.Scalar(other)))'"
        : "'\\' followed by byte \(JSONParseError.hex(other))"
      throw .invalidEscape(column: index + 1, reason: reason)
    }
    scratch.append(decoded)
    return index + 2
  }

  /// Decodes the `\uXXXX` escape at `index`, and the low surrogate's escape after it if it
  /// names a high surrogate; returns the offset after them.
  private mutating func decodeUnicodeEscape(at index: Int) throws(JSONParseError) -> Int {
    let unit = try hexQuad(at: index + 2, escape: index)
    var scalar = UInt32(unit)
    var next = index + 6
    switch unit {
    case 0xD800...0xDBFF:
      let unpaired = JSONParseError.invalidEscape(
        column: index + 1, reason: "unpaired high surrogate '\(text(index..<index + 6))'")
      for (position, expected) in [(next, UInt8(ascii: "\\")), (next + 1, UInt8(ascii: "u"))] {
        guard position < end else {
          throw .unexpectedEnd(column: end + 1, expected: "'\\u' escape of a low surrogate")
        }
        guard byte(at: position) == expected else { throw unpaired }
      }
      let low = try hexQuad(at: next + 2, escape: next)
      guard (0xDC00...0xDFFF).contains(low) else { throw unpaired }
      scalar = 0x1_0000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
      next += 6
    case 0xDC00...0xDFFF:
      throw .invalidEscape(
        column: index + 1, reason: "unpaired low surrogate '\(text(index..<index + 6))'")
    default:
      break
    }
    switch scalar {
    case ..<0x80:
      scratch.append(UInt8(scalar))
    case ..<0x800:
      scratch.append(0xC0 | UInt8(scalar >> 6))
      scratch.append(0x80 | UInt8(scalar & 0x3F))
    case ..<0x1_0000:
      scratch.append(0xE0 | UInt8(scalar >> 12))
      scratch.append(0x80 | UInt8((scalar >> 6) & 0x3F))
      scratch.append(0x80 | UInt8(scalar & 0x3F))
    default:
      scratch.append(0xF0 | UInt8(scalar >> 18))
      scratch.append(0x80 | UInt8((scalar >> 12) & 0x3F))
      scratch.append(0x80 | UInt8((scalar >> 6) & 0x3F))
      scratch.append(0x80 | UInt8(scalar & 0x3F))
    }
    return next
  }

  /// The four hexadecimal digits at `index`, of the `\u` escape at `escape`.
  private func hexQuad(at index: Int, escape: Int) throws(JSONParseError) -> UInt16 {
    var value: UInt16 = 0
    for position in index..<index + 4 {
      guard position < end else {
        throw .unexpectedEnd(column: end + 1, expected: "4 hexadecimal digits after '\\u'")
      }
      let byte = byte(at: position)
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default:
        throw .invalidEscape(
          column: escape + 1, reason: "'\\u' must be followed by 4 hexadecimal digits")
      }
      value = value << 4 | UInt16(digit)
    }
    return value
  }

  /// The length of the well-formed UTF-8 sequence at `index`, `nil` if it is ill-formed, or
  /// `0` if the input ends before it does.
  private func utf8SequenceLength(at index: Int) -> Int? {
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    let length: Int
    switch byte(at: index) {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: length = 2
    case 0xE0: (length, low) = (3, 0xA0)
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: (length, high) = (3, 0x9F)
    case 0xF0: (length, low) = (4, 0x90)
    case 0xF1...0xF3: length = 4
    case 0xF4: (length, high) = (4, 0x8F)
    default: return nil
    }
    for position in index + 1..<index + length {
      guard position < end else { return 0 }
      let byte = byte(at: position)
      guard low <= byte && byte <= high else { return nil }
      (low, high) = (0x80, 0xBF)
    }
    return length
  }

  /// Checks the UTF-8 sequence at `index`; returns the offset after it.
  @inline(__always)
  private func validateUTF8(at index: Int) throws(JSONParseError) -> Int {
    switch utf8SequenceLength(at: index) {
    case let length? where length > 0:
      return index + length
    case 0:
      throw .unexpectedEnd(column: end + 1, expected: "the rest of a UTF-8 sequence")
    default:
      throw .invalidUTF8(column: index + 1, byte: byte(at: index))
    }
  }

  // MARK: - Numbers

  /// Exact powers of ten for the fast path of ``parseNumber()``.
  private static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// Parses the number at `offset`: `.int` or `.uint` for integers that fit, else `.double`.
  private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = offset
    var index = offset
    let isNegative = byte(at: index) == UInt8(ascii: "-")
    if isNegative {
      index += 1
      guard index < end else {
        throw .unexpectedEnd(column: end + 1, expected: "a digit after '-'")
      }
    }

    // The digits, without the point, while they fit in 64 bits.
    var significand: UInt64 = 0
    var isExact = true

    // Integer part.
    let first = byte(at: index)
    if first == UInt8(ascii: "0") {
      index += 1
      if index < end, Self.isDigit(byte(at: index)) {
        throw .invalidNumber(column: index + 1, reason: "leading zeros are not allowed")
      }
    } else if Self.isDigit(first) {
      while index < end {
        let digit = byte(at: index) &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        isExact = Self.accumulate(digit, into: &significand) && isExact
        index += 1
      }
    } else {
      throw .invalidNumber(column: index + 1, reason: "expected a digit after '-'")
    }

    var isInteger = true
    var exponent = 0

    // Fraction.
    if index < end && byte(at: index) == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      try expectDigit(at: index, after: "'.'")
      while index < end {
        let digit = byte(at: index) &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        isExact = Self.accumulate(digit, into: &significand) && isExact
        exponent -= 1
        index += 1
      }
    }

    // Exponent.
    if index < end && (byte(at: index) | 0x20) == UInt8(ascii: "e") {
      isInteger = false
      index += 1
      var isExponentNegative = false
      if index < end
        && (byte(at: index) == UInt8(ascii: "+") || byte(at: index) == UInt8(ascii: "-"))
      {
        isExponentNegative = byte(at: index) == UInt8(ascii: "-")
        index += 1
      }
      try expectDigit(at: index, after: "the exponent's 'e'")
      var explicit = 0
      while index < end {
        let digit = byte(at: index) &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        explicit = min(explicit * 10 + Int(digit), 1_000_000_000)
        index += 1
      }
      exponent += isExponentNegative ? -explicit : explicit
    }
    offset = index

    if isInteger && isExact {
      if !isNegative {
        return significand <= UInt64(Int64.max) ? .int(Int64(significand)) : .uint(significand)
      }
      if significand <= Int64.min.magnitude {
        return .int(Int64(truncatingIfNeeded: 0 &- significand))
      }
    }

    // Clinger's fast path: both operands exact, so the one rounding is the correct one.
    if isExact && significand <= 1 << 53 && (-22...22).contains(exponent) {
      var value = Double(significand)
      if exponent < 0 {
        value /= Self.powersOfTen[-exponent]
      } else {
        value *= Self.powersOfTen[exponent]
      }
      return .double(isNegative ? -value : value)
    }

    let text = String(
      decoding: UnsafeRawBufferPointer(start: base.unsafelyUnwrapped + start, count: index - start),
      as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw .invalidNumber(column: start + 1, reason: "magnitude too large for a double")
    }
    return .double(value)
  }

  /// Throws unless a digit is at `index`.
  @inline(__always)
  private func expectDigit(at index: Int, after what: String) throws(JSONParseError) {
    guard index < end else {
      throw .unexpectedEnd(column: end + 1, expected: "a digit after \(what)")
    }
    guard Self.isDigit(byte(at: index)) else {
      throw .invalidNumber(column: index + 1, reason: "expected a digit after \(what)")
    }
  }

  /// Appends a decimal digit to `significand`; `false`, leaving it unspecified, on overflow.
  @inline(__always)
  private static func accumulate(_ digit: UInt8, into significand: inout UInt64) -> Bool {
    let (times10, overflow) = significand.multipliedReportingOverflow(by: 10)
    let (sum, carry) = times10.addingReportingOverflow(UInt64(digit))
    significand = sum
    return !(overflow || carry)
  }

  @inline(__always)
  private static func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  // MARK: - Bytes

  @inline(__always)
  private func byte(at index: Int) -> UInt8 {
    base.unsafelyUnwrapped.load(fromByteOffset: index, as: UInt8.self)
  }

  @inline(__always)
  private mutating func skipWhitespace() {
    var index = offset
    while index < end {
      let byte = byte(at: index)
      guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
      index += 1
    }
    offset = index
  }

  /// The input bytes in `range`, which are ASCII, as text.
  private func text(_ range: Range<Int>) -> String {
    String(
      decoding: UnsafeRawBufferPointer(
        start: base.unsafelyUnwrapped + range.lowerBound, count: range.count),
      as: UTF8.self)
  }

  /// The error for an unexpected byte at `index`.
  private func unexpectedCharacter(at index: Int, expected: String) -> JSONParseError {
    let byte = byte(at: index)
    let found: String
    if (0x20..<0x7F).contains(byte) {
      found = "'\(Character(Unicode.Scalar(byte)))'"
    } else if byte >= 0x80, let length = utf8SequenceLength(at: index), length > 0 {
      let character = text(index..<index + length)
      let scalar = character.unicodeScalars.first!.value
      let hex = String(scalar, radix: 16, uppercase: true)
      found = "'\(character)' (U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex))"
    } else {
      found = "byte \(JSONParseError.hex(byte))"
    }
    return .unexpectedCharacter(column: index + 1, found: found, expected: expected)
  }

  // MARK: - Moving values out

  /// The values in a range of memory, moved out as they are iterated: a single-pass sequence
  /// that leaves the memory uninitialized.
  private struct Moving<Element>: Sequence, IteratorProtocol {
    private var position: UnsafeMutablePointer<Element>
    private let end: UnsafeMutablePointer<Element>

    init(from start: UnsafeMutablePointer<Element>, to end: UnsafeMutablePointer<Element>) {
      self.position = start
      self.end = end
    }

    var underestimatedCount: Int { end - position }

    mutating func next() -> Element? {
      guard position < end else { return nil }
      defer { position += 1 }
      return position.move()
    }
  }
}
