/// A 64-bit FNV-1a hash of a state's canonical JSON, written in traces as 16 lowercase
/// hexadecimal digits.
///
/// It lets a reader check that the state it reconstructed from snapshots and diffs is the
/// state that was recorded. It detects accidents and edits, not attacks.
public struct TraceHash: Hashable, Sendable, CustomStringConvertible {
  /// The hash.
  public let value: UInt64

  /// A hash with this value.
  public init(_ value: UInt64) { self.value = value }

  /// Parses 16 hexadecimal digits; `nil` for anything else.
  public init?(hex: String) {
    guard hex.utf8.count == 16, let value = UInt64(hex, radix: 16) else { return nil }
    self.value = value
  }

  /// The FNV-1a hash of `bytes`.
  public init(of bytes: some Sequence<UInt8>) {
    self.value = FNV1a64.hash(bytes, from: FNV1a64.offsetBasis)
  }

  /// Appends the 16 lowercase hexadecimal digits of ``description``.
  package func write(to bytes: inout [UInt8]) {
    // Into a stack buffer, then appended in one copy.
    var digits: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &digits) { raw in
      let buffer = raw.bindMemory(to: UInt8.self)
      for index in 0..<16 {
        let digit = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xF
        buffer[index] = digit < 10 ? UInt8(ascii: "0") &+ digit : UInt8(ascii: "a") &+ digit &- 10
      }
      bytes.append(contentsOf: UnsafeBufferPointer(buffer))
    }
  }

  /// 16 lowercase hexadecimal digits.
  public var description: String {
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: 16 - hex.utf8.count) + hex
  }
}

/// The 64-bit FNV-1a hash, fed byte by byte.
package struct FNV1a64: JSONByteSink {
  /// The hash of no bytes.
  static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

  private(set) var value = offsetBasis

  package mutating func append(_ byte: UInt8) {
    value = Self.step(value, byte)
  }

  package mutating func append<Bytes: Collection<UInt8>>(contentsOf bytes: Bytes) {
    value = Self.hash(bytes, from: value)
  }

  /// The hash `start` becomes with `bytes` appended: over contiguous memory when there is
  /// some (a string's UTF-8 among them), a plain loop without the sequence's iterator.
  static func hash(_ bytes: some Sequence<UInt8>, from start: UInt64) -> UInt64 {
    let hashed = bytes.withContiguousStorageIfAvailable { buffer in
      var value = start
      for byte in buffer { value = step(value, byte) }
      return value
    }
    if let hashed { return hashed }
    var value = start
    for byte in bytes { value = step(value, byte) }
    return value
  }

  /// The hashes of four runs of bytes, computed together: four independent chains of
  /// multiplications, where one chain waits on each product.
  package static func hash(
    _ first: [UInt8], _ second: [UInt8], _ third: [UInt8], _ fourth: [UInt8]
  ) -> (UInt64, UInt64, UInt64, UInt64) {
    first.withUnsafeBufferPointer { a in
      second.withUnsafeBufferPointer { b in
        third.withUnsafeBufferPointer { c in
          fourth.withUnsafeBufferPointer { d in
            let common = min(a.count, b.count, c.count, d.count)
            var (ha, hb, hc, hd) = (offsetBasis, offsetBasis, offsetBasis, offsetBasis)
            if common > 0 {
              let (pa, pb, pc, pd) = (
                a.baseAddress!, b.baseAddress!, c.baseAddress!, d.baseAddress!
              )
              for index in 0..<common {
                ha = step(ha, pa[index])
                hb = step(hb, pb[index])
                hc = step(hc, pc[index])
                hd = step(hd, pd[index])
              }
            }
            return (
              hash(UnsafeBufferPointer(rebasing: a[common...]), from: ha),
              hash(UnsafeBufferPointer(rebasing: b[common...]), from: hb),
              hash(UnsafeBufferPointer(rebasing: c[common...]), from: hc),
              hash(UnsafeBufferPointer(rebasing: d[common...]), from: hd)
            )
          }
        }
      }
    }
  }

  @inline(__always)
  private static func step(_ value: UInt64, _ byte: UInt8) -> UInt64 {
    (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
  }
}
