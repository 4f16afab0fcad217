import ReactorJSON

/// Decodes the action and mutation lines the Swift recorder writes without building a JSON
/// tree for the line: the fast path of ``TraceReader``.
///
/// It accepts only lines of exactly the recorder's shape (members in its order, no
/// whitespace, labels of printable ASCII without escapes, integers without signs) and parses
/// only the payloads and states in them, with the reader's ``JSONParser``. For anything else,
/// including every malformed line, it returns `nil` and the reader decodes the line the
/// general way, so results and errors are the same either way. Payloads and labels that recur
/// are taken from small caches instead of being parsed again.
struct EventLineDecoder {
  /// A recently decoded payload or label, with its bytes in the line.
  private struct Cached<Value> {
    var bytes: [UInt8]
    var value: Value
  }

  /// How many payloads and labels each cache holds; an app's reactor sends a few distinct
  /// ones most of the time.
  private static var cacheSize: Int { 8 }
  /// Longer payloads and labels are not cached.
  private static var longestCached: Int { 64 }

  private var payloads: [Cached<JSONValue>] = []
  private var nextPayload = 0
  /// Where to start looking for the next payload and label: after the last one found.
  ///
  /// An app's events come in cycles (an action, then its mutations), so the next one is usually
  /// the one cached after the last; no two entries match the same bytes, so the order of the
  /// search changes nothing but its length.
  private var payloadHint = 0
  private var labelHint = 0
  private var labels: [Cached<String>] = []
  private var nextLabel = 0

  /// Whether the last mutation decoded had its state change scanned instead of parsed; its
  /// event then holds an empty diff in place of it.
  private(set) var skippedState = false
  /// The `reactor` member of the last session line decoded.
  private(set) var reactor = 0

  /// An action or mutation line of the recorder's shape, read: the fields of its event,
  /// before it is made (a reduce replay takes only a few of them).
  struct Line {
    /// The two kinds of line the fast path reads.
    enum Kind {
      case action
      case mutation
    }

    var kind = Kind.action
    var sequence = 0
    var time = Duration.zero
    /// The action's or the mutation's id.
    var id = 0
    var label = ""
    var value = JSONValue.null
    /// The action behind a mutation.
    var action = 0
    /// The effect that sent a mutation, or 0 when the action's `mutate` returned it.
    var effect = 0
    /// A mutation's state change (an empty diff when it was only checked).
    var state = TraceEvent.StateChange.diff([])
    /// A mutation's state hash.
    var stateHash = TraceHash(0)

    /// The event on the line.
    var event: TraceEvent {
      switch kind {
      case .action:
        TraceEvent(
          sequence: sequence, time: time,
          kind: .action(TraceEvent.Action(id: id, label: label, value: value, source: .sent)))
      case .mutation:
        TraceEvent(
          sequence: sequence, time: time,
          kind: .mutation(
            TraceEvent.Mutation(
              id: id, label: label, value: value,
              cause: effect == 0 ? .action(action) : .effect(effect, action: action),
              state: state, stateHash: stateHash)))
      }
    }
  }

  /// The fields of the line ``read(_:parser:skippingStates:inSession:)`` took last.
  ///
  /// Kept here, not returned: a replay reads a few of them in place, without moving the rest.
  private(set) var line = Line()

  /// Decodes a line of the recorder's shape.
  /// - Parameters:
  ///   - line: The line's bytes.
  ///   - parser: The reader's parser.
  ///   - skippingStates: Whether to only check the state change of a mutation of the simplest
  ///     shapes (a flat snapshot, or set operations, of plain scalars) instead of parsing it.
  ///   - inSession: Whether the line is a session's, with a `reactor` member after `t`
  ///     (then in ``reactor``), as the session recorder writes its reactors' events.
  /// - Returns: The event on the line, or `nil` when the line is not of the recorder's shape.
  mutating func decode(
    _ line: UnsafeRawBufferPointer, parser: inout JSONParser, skippingStates: Bool = false,
    inSession: Bool = false
  ) -> TraceEvent? {
    guard read(line, parser: &parser, skippingStates: skippingStates, inSession: inSession)
    else { return nil }
    return self.line.event
  }

  /// Reads again the line of a mutation this decoder read the fast way a moment ago, its
  /// state change parsed this time, and returns the mutation: the replay readers'
  /// `lastMutation()`, for a mutation whose state change was skipped.
  mutating func rereadMutation(
    _ bytes: UnsafeRawBufferPointer, parser: inout JSONParser
  ) -> TraceEvent.Mutation {
    // The line read the fast way before, and reads so again.
    guard read(bytes, parser: &parser), case .mutation(let mutation) = line.event.kind else {
      preconditionFailure("the last mutation's line no longer reads")
    }
    return mutation
  }

  /// Reads a line of the recorder's shape into ``line``, as
  /// ``decode(_:parser:skippingStates:inSession:)`` does, without making its event.
  /// - Returns: Whether the line is of the recorder's shape; ``line`` holds its fields.
  mutating func read(
    _ bytes: UnsafeRawBufferPointer, parser: inout JSONParser, skippingStates: Bool = false,
    inSession: Bool = false
  ) -> Bool {
    skippedState = false
    var cursor = Cursor(bytes: bytes)
    guard cursor.skip(#"{"seq":"#), let sequence = cursor.count(), sequence >= 1,
      cursor.skip(#","t":"#), let time = cursor.integer()
    else { return false }
    if inSession {
      guard cursor.skip(#","reactor":"#), let reactor = cursor.count(), reactor >= 1 else {
        return false
      }
      self.reactor = reactor
    }
    guard cursor.skip(#","kind":""#) else { return false }
    if cursor.skip(#"action","id":"#) {
      guard let id = cursor.count(), id >= 1, cursor.skip(#","label":""#),
        let label = label(&cursor), cursor.skip(#"","value":"#),
        let value = payload(&cursor, parser: &parser), cursor.skip(#","source":"sent"}"#),
        cursor.isAtEnd
      else { return false }
      line.kind = .action
      line.id = id
      line.label = label
      line.value = value
    } else if cursor.skip(#"mutation","id":"#) {
      guard let id = cursor.count(), id >= 1, cursor.skip(#","label":""#),
        let label = label(&cursor), cursor.skip(#"","value":"#),
        let value = payload(&cursor, parser: &parser),
        cursor.skip(#","cause":{"action":"#), let action = cursor.count(), action >= 1
      else { return false }
      var effect = 0
      if !cursor.skip("}") {
        guard cursor.skip(#","effect":"#), let id = cursor.count(), id >= 1, cursor.skip("}")
        else { return false }
        effect = id
      }
      if skippingStates, Self.skipSimpleStateChange(&cursor) {
        skippedState = true
      } else if cursor.skip(#","diff":"#) {
        guard let operations = diff(&cursor, parser: &parser) else { return false }
        line.state = .diff(operations)
      } else if cursor.skip(#","snapshot":"#), let snapshot = parsedValue(&cursor, parser: &parser)
      {
        line.state = .snapshot(snapshot)
      } else {
        return false
      }
      guard cursor.skip(#","hash":""#), let hash = cursor.hash(), cursor.skip(#""}"#),
        cursor.isAtEnd
      else { return false }
      if skippedState { line.state = .diff([]) }
      line.kind = .mutation
      line.id = id
      line.label = label
      line.value = value
      line.action = action
      line.effect = effect
      line.stateHash = hash
    } else {
      return false
    }
    line.sequence = sequence
    line.time = .traceNanoseconds(Int64(time))
    return true
  }

  /// Skips a state change of the simplest shapes, reporting whether it did.
  ///
  /// Those are `,"diff":[…]` of set operations and `,"snapshot":{…}` of members in increasing
  /// key order, whose values are all plain scalars: `true`, `false`, `null`, an integer of at
  /// most 18 digits, or a string of printable ASCII without escapes. Such a change is valid,
  /// and parses as the general path parses it. Leaves the cursor where it was for any other.
  private static func skipSimpleStateChange(_ cursor: inout Cursor) -> Bool {
    let start = cursor.offset
    if cursor.skip(#","diff":["#) {
      if cursor.skip("]") { return true }
      repeat {
        guard cursor.skip(#"{"p":["#) else { break }
        if !cursor.skip("]") {
          var isPath = true
          repeat {
            if cursor.skip("\"") {
              guard cursor.skipPlainString() else {
                isPath = false
                break
              }
            } else if cursor.integer() == nil {
              isPath = false
              break
            }
          } while cursor.skip(",")
          guard isPath, cursor.skip("]") else { break }
        }
        guard cursor.skip(#","v":"#), cursor.skipPlainScalar(), cursor.skip("}") else { break }
        if cursor.skip("]") { return true }
      } while cursor.skip(",")
    } else if cursor.skip(#","snapshot":{"#) {
      if cursor.skip("}") { return true }
      var previousKey: UnsafeRawBufferPointer?
      repeat {
        guard cursor.skip("\"") else { break }
        let keyStart = cursor.offset
        guard cursor.skipPlainString() else { break }
        let key = cursor.bytes(keyStart..<cursor.offset - 1)
        // Increasing keys: none repeats, and the members are in canonical order.
        if let previousKey, !previousKey.lexicographicallyPrecedes(key) { break }
        previousKey = key
        guard cursor.skip(":"), cursor.skipPlainScalar() else { break }
        if cursor.skip("}") { return true }
      } while cursor.skip(",")
    }
    cursor.offset = start
    return false
  }

  /// A label: printable ASCII up to the closing quote, which is left for the caller.
  private mutating func label(_ cursor: inout Cursor) -> String? {
    let start = cursor.offset
    let labelCount = labels.count
    var index = labelHint < labelCount ? labelHint : 0
    for _ in 0..<labelCount {
      if cursor.matches(labels[index].bytes),
        cursor.byte(at: start + labels[index].bytes.count) == UInt8(ascii: "\"")
      {
        cursor.offset += labels[index].bytes.count
        labelHint = index &+ 1
        return labels[index].value
      }
      index = index &+ 1 == labelCount ? 0 : index &+ 1
    }
    while let byte = cursor.byte(at: cursor.offset), byte >= 0x20, byte < 0x7F,
      byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\")
    {
      cursor.offset += 1
    }
    guard cursor.byte(at: cursor.offset) == UInt8(ascii: "\"") else { return nil }
    let bytes = cursor.bytes(start..<cursor.offset)
    let label = String(decoding: bytes, as: UTF8.self)
    if bytes.count <= Self.longestCached {
      Self.remember(Cached(bytes: Array(bytes), value: label), in: &labels, next: &nextLabel)
    }
    return label
  }

  /// A diff whose operations all set a value, `[{"p":[…],"v":…},…]`, as
  /// `TraceDiffOperation(json:)` would read it; `nil` for any other.
  private func diff(_ cursor: inout Cursor, parser: inout JSONParser) -> [TraceDiffOperation]? {
    guard cursor.skip("[") else { return nil }
    var operations: [TraceDiffOperation] = []
    if cursor.skip("]") { return operations }
    repeat {
      guard cursor.skip(#"{"p":["#) else { return nil }
      var path: [JSONPathComponent] = []
      if !cursor.skip("]") {
        repeat {
          if cursor.skip("\"") {
            let start = cursor.offset
            while let byte = cursor.byte(at: cursor.offset), byte >= 0x20, byte < 0x7F,
              byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\")
            {
              cursor.offset += 1
            }
            guard cursor.skip("\"") else { return nil }
            path.append(
              .key(String(decoding: cursor.bytes(start..<cursor.offset - 1), as: UTF8.self)))
          } else if let index = cursor.integer() {
            path.append(.index(index))
          } else {
            return nil
          }
        } while cursor.skip(",")
        guard cursor.skip("]") else { return nil }
      }
      guard cursor.skip(#","v":"#), let value = parsedValue(&cursor, parser: &parser),
        cursor.skip("}")
      else { return nil }
      operations.append(.set(path, value))
    } while cursor.skip(",")
    guard cursor.skip("]") else { return nil }
    return operations
  }

  /// A payload: a JSON object, array or string (values that end where they end, so a cached
  /// one that matches the bytes at the cursor is the value there).
  private mutating func payload(_ cursor: inout Cursor, parser: inout JSONParser) -> JSONValue? {
    let payloadCount = payloads.count
    var index = payloadHint < payloadCount ? payloadHint : 0
    for _ in 0..<payloadCount {
      if cursor.matches(payloads[index].bytes) {
        cursor.offset += payloads[index].bytes.count
        payloadHint = index &+ 1
        return payloads[index].value
      }
      index = index &+ 1 == payloadCount ? 0 : index &+ 1
    }
    let start = cursor.offset
    guard let value = parsedValue(&cursor, parser: &parser) else { return nil }
    switch value {
    case .object, .array, .string:
      if cursor.offset - start <= Self.longestCached {
        Self.remember(
          Cached(bytes: Array(cursor.bytes(start..<cursor.offset)), value: value), in: &payloads,
          next: &nextPayload)
      }
    default:
      break
    }
    return value
  }

  private func parsedValue(_ cursor: inout Cursor, parser: inout JSONParser) -> JSONValue? {
    guard let (value, end) = try? parser.parseValue(in: cursor.buffer, at: cursor.offset) else {
      return nil
    }
    cursor.offset = end
    return value
  }

  private static func remember<Value>(
    _ entry: Cached<Value>, in cache: inout [Cached<Value>], next: inout Int
  ) {
    if cache.count < cacheSize {
      cache.append(entry)
    } else {
      cache[next] = entry
      next = (next + 1) % cacheSize
    }
  }

  /// A position in a line.
  private struct Cursor {
    let buffer: UnsafeRawBufferPointer
    var offset = 0

    init(bytes: UnsafeRawBufferPointer) { buffer = bytes }

    var isAtEnd: Bool { offset == buffer.count }

    func byte(at index: Int) -> UInt8? {
      index < buffer.count ? buffer[index] : nil
    }

    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(rebasing: buffer[range])
    }

    /// Whether `bytes` come next.
    @inline(__always)
    func matches(_ bytes: [UInt8]) -> Bool {
      guard buffer.count - offset >= bytes.count else { return false }
      return bytes.withUnsafeBytes { bytes in
        bytes.isEmpty || Self.equal(buffer.baseAddress! + offset, bytes.baseAddress!, bytes.count)
      }
    }

    /// Skips `text` if it comes next.
    ///
    /// Inlined: the text's length is then a constant, and the comparison a few loads.
    @inline(__always)
    mutating func skip(_ text: StaticString) -> Bool {
      let count = text.utf8CodeUnitCount
      guard buffer.count - offset >= count,
        Self.equal(buffer.baseAddress! + offset, UnsafeRawPointer(text.utf8Start), count)
      else { return false }
      offset += count
      return true
    }

    /// Whether `count` bytes at `a` and `b` are equal: `memcmp` inlined for the short runs of
    /// a trace line, 8 bytes at a time, the last 8 overlapping the ones before, and a run
    /// shorter than 8 in at most three loads.
    @inline(__always)
    private static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
      if count >= 8 {
        var index = 0
        while index + 8 < count {
          guard
            a.loadUnaligned(fromByteOffset: index, as: UInt64.self)
              == b.loadUnaligned(fromByteOffset: index, as: UInt64.self)
          else { return false }
          index += 8
        }
        return a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
          == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      }
      var index = 0
      if count & 4 != 0 {
        guard
          a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
        else { return false }
        index = 4
      }
      if count & 2 != 0 {
        guard
          a.loadUnaligned(fromByteOffset: index, as: UInt16.self)
            == b.loadUnaligned(fromByteOffset: index, as: UInt16.self)
        else { return false }
        index += 2
      }
      if count & 1 != 0 {
        return a.load(fromByteOffset: index, as: UInt8.self)
          == b.load(fromByteOffset: index, as: UInt8.self)
      }
      return true
    }

    /// A sequence number, id or count: an ``integer()`` of at most
    /// ``JSONFields/largestInteger``; the general path names the problem with any other.
    mutating func count() -> Int? {
      guard let value = integer(), value <= JSONFields.largestInteger else { return nil }
      return value
    }

    /// A non-negative integer without leading zeros that fits in `Int`.
    mutating func integer() -> Int? {
      let start = offset
      var value = 0
      // 18 digits cannot overflow: no checks for them.
      let unchecked = min(buffer.count, offset + 18)
      while offset < unchecked {
        let digit = buffer[offset] &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        value = value &* 10 &+ Int(digit)
        offset += 1
      }
      while let byte = byte(at: offset), byte &- UInt8(ascii: "0") < 10 {
        let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
        let (sum, carry) = times10.addingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
        guard !overflow, !carry else { return nil }
        value = sum
        offset += 1
      }
      let count = offset - start
      guard count > 0, count == 1 || buffer[start] != UInt8(ascii: "0") else { return nil }
      return value
    }

    /// Skips printable ASCII without quotes or backslashes, and the closing quote.
    mutating func skipPlainString() -> Bool {
      while let byte = byte(at: offset), byte >= 0x20, byte < 0x7F,
        byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\")
      {
        offset += 1
      }
      return skip("\"")
    }

    /// Skips `true`, `false`, `null`, an integer of at most 18 digits without leading zeros,
    /// or a string of printable ASCII without escapes; the caller checks what follows.
    mutating func skipPlainScalar() -> Bool {
      if skip("true") || skip("false") || skip("null") { return true }
      if skip("\"") { return skipPlainString() }
      let start = offset
      _ = skip("-")
      let digits = offset
      while let byte = byte(at: offset), byte &- UInt8(ascii: "0") < 10 { offset += 1 }
      let count = offset - digits
      guard count > 0, count <= 18, count == 1 || buffer[digits] != UInt8(ascii: "0") else {
        offset = start
        return false
      }
      return true
    }

    /// 16 lowercase hexadecimal digits.
    mutating func hash() -> TraceHash? {
      guard buffer.count - offset >= 16,
        let high = Self.hexDigits(buffer.baseAddress! + offset),
        let low = Self.hexDigits(buffer.baseAddress! + offset + 8)
      else { return nil }
      offset += 16
      return TraceHash(high << 32 | low)
    }

    /// The value of the 8 lowercase hexadecimal digits at `digits`, or `nil` when one is not
    /// such a digit: all 8 at once in a 64-bit word.
    @inline(__always)
    private static func hexDigits(_ digits: UnsafeRawPointer) -> UInt64? {
      // Byte i of `word` is digit i, the most significant first.
      let word = UInt64(littleEndian: digits.loadUnaligned(as: UInt64.self))
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highBits: UInt64 = 0x8080_8080_8080_8080
      // A byte below 0x80 plus (0x80 - n) has its high bit set exactly when it is at least
      // n, and carries into no other byte.
      func atLeast(_ n: UInt64) -> UInt64 { (word &+ (0x80 &- n) &* ones) & highBits }
      let isDecimal = atLeast(0x30) & ~atLeast(0x3A)
      let isLetter = atLeast(0x61) & ~atLeast(0x67)
      guard word & highBits == 0, isDecimal | isLetter == highBits else { return nil }
      // '0'...'9' are 0x30...0x39 and 'a'...'f' 0x61...0x66: the low 4 bits, plus 9 where
      // bit 6 is set.
      var value = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ ((word >> 6) & ones) &* 9
      // Pairs of digits into bytes, pairs of bytes into 16 bits, then into 32.
      value = ((value << 4) | (value >> 8)) & 0x00FF_00FF_00FF_00FF
      value = ((value << 8) | (value >> 16)) & 0x0000_FFFF_0000_FFFF
      value = ((value << 16) | (value >> 32)) & 0x0000_0000_FFFF_FFFF
      return value
    }
  }
}
