extension JSONValue {
  /// The canonical serialization: compact UTF-8 JSON, object members sorted by key, numbers in
  /// their shortest round-trip form (see docs/trace-format.md, "Canonical JSON").
  public var serialized: [UInt8] {
    var bytes: [UInt8] = []
    write(to: &bytes)
    return bytes
  }

  /// The canonical serialization as a string.
  public var serializedString: String {
    String(decoding: serialized, as: UTF8.self)
  }

  /// Appends the canonical serialization to `bytes`.
  public func write(to bytes: inout [UInt8]) {
    JSONWriter.write(self, to: &bytes)
  }

  /// The FNV-1a 64-bit hash of the canonical serialization, computed without building it.
  public var canonicalHash: TraceHash {
    var hasher = FNV1a64()
    JSONWriter.write(self, to: &hasher)
    return TraceHash(hasher.value)
  }
}

/// Where ``JSONWriter`` puts bytes.
package protocol JSONByteSink {
  /// Appends one byte.
  mutating func append(_ byte: UInt8)
  /// Appends bytes.
  mutating func append<Bytes: Collection<UInt8>>(contentsOf bytes: Bytes)
}

extension Array: JSONByteSink where Element == UInt8 {}

/// Writes canonical JSON into a sink: a byte array, or a hasher.
package enum JSONWriter {
  package static func write<Sink: JSONByteSink>(_ value: JSONValue, to sink: inout Sink) {
    switch value {
    case .null: sink.append(contentsOf: "null".utf8)
    case .bool(let value): sink.append(contentsOf: value ? "true".utf8 : "false".utf8)
    case .int(let value): writeInteger(value, to: &sink)
    case .uint(let value): sink.append(contentsOf: String(value).utf8)
    case .double(let value): writeDouble(value, to: &sink)
    case .string(let string): writeString(string, to: &sink)
    case .array(let elements):
      sink.append(UInt8(ascii: "["))
      var first = true
      for element in elements {
        if !first { sink.append(UInt8(ascii: ",")) }
        first = false
        write(element, to: &sink)
      }
      sink.append(UInt8(ascii: "]"))
    case .object(let object):
      sink.append(UInt8(ascii: "{"))
      var first = true
      for member in object.members {
        if !first { sink.append(UInt8(ascii: ",")) }
        first = false
        writeString(member.key, to: &sink)
        sink.append(UInt8(ascii: ":"))
        write(member.value, to: &sink)
      }
      sink.append(UInt8(ascii: "}"))
    }
  }

  package static func writeInteger<Sink: JSONByteSink>(_ value: Int64, to sink: inout Sink) {
    if value >= 0 && value < 10 {
      sink.append(UInt8(ascii: "0") &+ UInt8(value))
      return
    }
    // Digits into a small stack buffer, most significant first, two at a time, then appended
    // in one copy.
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &digits) { raw in
      let buffer = raw.bindMemory(to: UInt8.self)
      var magnitude = value.magnitude
      var index = buffer.count
      while magnitude >= 10 {
        let (quotient, pair) = magnitude.quotientAndRemainder(dividingBy: 100)
        let tens = UInt8(truncatingIfNeeded: pair / 10)
        let ones = UInt8(truncatingIfNeeded: pair % 10)
        index -= 1
        buffer[index] = UInt8(ascii: "0") &+ ones
        if quotient == 0 && tens == 0 {
          magnitude = 0
          break
        }
        index -= 1
        buffer[index] = UInt8(ascii: "0") &+ tens
        magnitude = quotient
      }
      if magnitude > 0 || index == buffer.count {
        index -= 1
        buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
      }
      if value < 0 {
        index -= 1
        buffer[index] = UInt8(ascii: "-")
      }
      sink.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index...]))
    }
  }

  static func writeDouble<Sink: JSONByteSink>(_ value: Double, to sink: inout Sink) {
    guard value.isFinite else {
      // Not JSON; the encoder never produces it. Written as null rather than breaking a line.
      sink.append(contentsOf: "null".utf8)
      return
    }
    if let integer = Int64(exactly: value), integer.magnitude < 1 << 53 {
      writeInteger(integer, to: &sink)
      return
    }
    sink.append(contentsOf: ECMAScriptNumber.format(value).utf8)
  }

  package static func writeString<Sink: JSONByteSink>(_ string: String, to sink: inout Sink) {
    sink.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
      guard let base = utf8.baseAddress else { return }
      let count = utf8.count
      var start = 0
      var index = 0
      while true {
        // Eight bytes at a time while none needs an escape: most strings have none.
        while index + 8 <= count, !ByteWord.needsEscape(ByteWord.load(base + index)) {
          index += 8
        }
        guard index < count else { break }
        let byte = base[index]
        index += 1
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
          continue
        }
        if start < index - 1 {
          sink.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index - 1]))
        }
        start = index
        sink.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): sink.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): sink.append(UInt8(ascii: "\\"))
        case 0x08: sink.append(UInt8(ascii: "b"))
        case 0x0C: sink.append(UInt8(ascii: "f"))
        case 0x0A: sink.append(UInt8(ascii: "n"))
        case 0x0D: sink.append(UInt8(ascii: "r"))
        case 0x09: sink.append(UInt8(ascii: "t"))
        default:
          let hex = Array("0123456789abcdef".utf8)
          sink.append(contentsOf: "u00".utf8)
          sink.append(hex[Int(byte >> 4)])
          sink.append(hex[Int(byte & 0xF)])
        }
      }
      if start < utf8.count {
        sink.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
      }
    }
    sink.append(UInt8(ascii: "\""))
  }
}

/// Formats doubles as ECMAScript's `Number.prototype.toString` does: the shortest digits that
/// round-trip, in plain notation for exponents from -6 to 20 and `1.5e+21` style otherwise.
enum ECMAScriptNumber {
  static func format(_ value: Double) -> String {
    if value == 0 { return "0" }
    // Swift's description already holds the shortest round-trip digits.
    let text = value.magnitude.description
    var mantissa = Substring(text)
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      mantissa = text[..<e]
      exponent = Int(text[text.index(after: e)...]) ?? 0
    }
    var digits = ""
    var pointPosition = 0
    if let dot = mantissa.firstIndex(of: ".") {
      digits = String(mantissa[..<dot]) + mantissa[mantissa.index(after: dot)...]
      pointPosition = mantissa.distance(from: mantissa.startIndex, to: dot)
    } else {
      digits = String(mantissa)
      pointPosition = digits.count
    }
    pointPosition += exponent
    while digits.first == "0" {
      digits.removeFirst()
      pointPosition -= 1
    }
    while digits.last == "0" { digits.removeLast() }
    let k = digits.count
    let n = pointPosition
    let sign = value < 0 ? "-" : ""
    if k <= n && n <= 21 {
      return sign + digits + String(repeating: "0", count: n - k)
    }
    if 0 < n && n <= 21 {
      let split = digits.index(digits.startIndex, offsetBy: n)
      return sign + digits[..<split] + "." + digits[split...]
    }
    if -6 < n && n <= 0 {
      return sign + "0." + String(repeating: "0", count: -n) + digits
    }
    let power = n - 1
    let exponentText = (power < 0 ? "e-" : "e+") + String(power.magnitude)
    let head = digits.prefix(1)
    let tail = digits.dropFirst()
    return sign + head + (tail.isEmpty ? "" : "." + tail) + exponentText
  }
}
