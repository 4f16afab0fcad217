/// Writes bytes through a pointer into memory the caller sized beforehand: how the file
/// writer builds an action or mutation line with one copy into its buffer, instead of a dozen
/// array appends each checking capacity and uniqueness.
package struct ByteCursor {
  /// The most bytes ``write(_:)-(Int)`` writes: 19 digits and a sign.
  package static var maximumIntegerCount: Int { 20 }
  /// The bytes ``write(_:)-(TraceHash)`` writes, quotes included.
  package static var hashCount: Int { 18 }

  @usableFromInline package private(set) var pointer: UnsafeMutablePointer<UInt8>

  @inlinable package init(_ pointer: UnsafeMutablePointer<UInt8>) {
    self.pointer = pointer
  }

  @inlinable @inline(__always)
  package mutating func write(_ text: StaticString) {
    let count = text.utf8CodeUnitCount
    pointer.initialize(from: text.utf8Start, count: count)
    pointer += count
  }

  @inlinable @inline(__always)
  package mutating func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { write($0) }
  }

  @inlinable @inline(__always)
  package mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress else { return }
    pointer.initialize(from: base, count: bytes.count)
    pointer += bytes.count
  }

  /// Writes an integer in decimal, as `JSONWriter.writeInteger` does.
  ///
  /// Its digits are counted first and written in place from the last, two at a time: a copy
  /// from a scratch buffer cost a `memmove` call per integer.
  @inlinable @inline(__always)
  package mutating func write(_ integer: Int) {
    if integer < 0 {
      pointer.pointee = UInt8(ascii: "-")
      pointer += 1
    }
    var magnitude = integer.magnitude
    let count = Self.digitCount(magnitude)
    var index = count
    while magnitude >= 100 {
      let (quotient, pair) = magnitude.quotientAndRemainder(dividingBy: 100)
      index &-= 2
      pointer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair / 10)
      pointer[index &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair % 10)
      magnitude = quotient
    }
    if magnitude >= 10 {
      pointer[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / 10)
      pointer[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
    } else {
      pointer[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
    }
    pointer += count
  }

  /// The number of decimal digits of `magnitude`, 1 to 20.
  @inline(__always)
  @inlinable static func digitCount(_ magnitude: UInt) -> Int {
    var count = 1
    var threshold: UInt = 10
    while magnitude >= threshold {
      count &+= 1
      if count == 20 { break }
      threshold &*= 10
    }
    return count
  }

  /// Writes a hash's 16 hexadecimal digits in quotes.
  @inlinable package mutating func write(_ hash: TraceHash) {
    pointer.pointee = UInt8(ascii: "\"")
    for index in 0..<16 {
      let digit = UInt8(truncatingIfNeeded: hash.value >> UInt64(60 - 4 * index)) & 0xF
      pointer[1 + index] =
        digit < 10 ? UInt8(ascii: "0") &+ digit : UInt8(ascii: "a") &+ digit &- 10
    }
    pointer[17] = UInt8(ascii: "\"")
    pointer += 18
  }
}
