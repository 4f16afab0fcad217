/// Tests on eight bytes at once, loaded as one `UInt64`: how the serializer and the diff move
/// over long runs of bytes that need nothing done (a string's plain characters, an array's
/// numbers) without a branch per byte.
package enum ByteWord {
  /// The eight bytes at `pointer`, in memory order from the low byte on a little-endian
  /// machine (the tests here do not depend on the order).
  @inlinable @inline(__always)
  package static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
    UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)
  }

  /// The high bit of each byte of `word` that equals `byte`, and no other bit.
  @inlinable @inline(__always)
  package static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let difference = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
    // A byte's high bit is set when the byte is zero: neither its low seven bits, carried
    // into the high one, nor its own high bit.
    return ~(((difference & lowBits) &+ lowBits) | difference | lowBits)
  }

  /// Whether a byte of `word` is a quote or a backslash: where a string's plain characters
  /// stop.
  @inlinable @inline(__always)
  package static func holdsQuoteOrBackslash(_ word: UInt64) -> Bool {
    matches(word, UInt8(ascii: "\"")) | matches(word, UInt8(ascii: "\\")) != 0
  }

  /// Whether a byte of `word` needs an escape in a JSON string: a quote, a backslash or a
  /// control character (below 0x20).
  @inlinable @inline(__always)
  package static func needsEscape(_ word: UInt64) -> Bool {
    // A byte below 0x20 borrows when 0x20 is taken from it, which sets its high bit, and had
    // that bit clear. A borrow reaches the byte above only from a byte that is itself below
    // 0x20, so the test is exact for the word as a whole.
    let control = (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
    return control != 0 || holdsQuoteOrBackslash(word)
  }

  /// Moves `position` over a string's characters eight bytes at a time, up to `end` or to the
  /// eight bytes that hold the next quote or backslash, from where a walk goes on byte by
  /// byte: how a walk through JSON passes a long string.
  @inlinable @inline(__always)
  package static func skipStringCharacters(
    in base: UnsafePointer<UInt8>, from position: inout Int, to end: Int
  ) {
    while position + 8 <= end, !holdsQuoteOrBackslash(load(base + position)) {
      position += 8
    }
  }
}
