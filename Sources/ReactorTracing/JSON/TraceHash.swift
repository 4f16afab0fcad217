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
    var hasher = FNV1a64()
    for byte in bytes { hasher.append(byte) }
    self.value = hasher.value
  }

  /// The FNV-1a hash of `bytes`: the same as ``init(of:)``, without a generic iteration.
  package init(bytes: UnsafeBufferPointer<UInt8>) {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    self.value = value
  }

  /// Appends the 16 lowercase hexadecimal digits of ``description``.
  func write(to bytes: inout [UInt8]) {
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
struct FNV1a64: JSONByteSink {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func append(_ byte: UInt8) {
    value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
  }

  mutating func append<Bytes: Collection<UInt8>>(contentsOf bytes: Bytes) {
    // Over contiguous memory when there is some (strings' UTF-8 among them): a plain loop,
    // without the collection's index arithmetic per byte.
    let start = value
    if let hashed = bytes.withContiguousStorageIfAvailable({ Self.hash($0, from: start) }) {
      value = hashed
      return
    }
    var value = self.value
    for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    self.value = value
  }

  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, from start: UInt64) -> UInt64 {
    var value = start
    for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return value
  }
}
