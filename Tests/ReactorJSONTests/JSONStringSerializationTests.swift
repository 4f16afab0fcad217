import Testing

@testable import ReactorJSON

@Suite("Serializing strings")
struct JSONStringSerializationTests {
  /// A string's canonical JSON, one byte at a time: quote, backslash and control characters
  /// escaped (the short escapes where JSON has one), every other byte as it is.
  private func reference(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = [UInt8(ascii: "\"")]
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes += Array(#"\""#.utf8)
      case UInt8(ascii: "\\"): bytes += Array(#"\\"#.utf8)
      case 0x08: bytes += Array(#"\b"#.utf8)
      case 0x0C: bytes += Array(#"\f"#.utf8)
      case 0x0A: bytes += Array(#"\n"#.utf8)
      case 0x0D: bytes += Array(#"\r"#.utf8)
      case 0x09: bytes += Array(#"\t"#.utf8)
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
    return bytes
  }

  @Test func everyCharacterAtEveryPlaceIsEscapedAsOneByteAtATimeWould() {
    // Every ASCII character, and characters of two to four bytes, at each place of strings
    // around the eight bytes the serializer checks at once, alone and twice.
    let characters = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) } + ["é", "✓", "😀"]
    for length in 0..<20 {
      let plain = String(repeating: "a", count: length)
      #expect(JSONValue.string(plain).serialized == reference(plain))
      for character in characters {
        for place in stride(from: 0, through: length, by: max(1, length / 6)) {
          var text = plain
          text.insert(contentsOf: character, at: text.index(text.startIndex, offsetBy: place))
          #expect(JSONValue.string(text).serialized == reference(text), "\(Array(text.utf8))")
          text += character
          #expect(JSONValue.string(text).serialized == reference(text), "\(Array(text.utf8))")
        }
      }
    }
  }

  @Test func aStringHashesAsItsSerializedBytes() {
    for text in ["", "plain text of more than eight bytes", "tab\there \"quoted\" \u{1}", "é✓😀"] {
      let value = JSONValue.array([.string(text), ["key \(text)": .string(text)]])
      #expect(value.canonicalHash == TraceHash(of: value.serialized))
    }
  }
}
