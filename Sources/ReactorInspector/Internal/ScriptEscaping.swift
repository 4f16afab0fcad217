/// Makes JSON text safe inside an HTML `<script>` element.
enum ScriptEscaping {
  /// The JSON with `<`, `>`, `&`, U+2028 and U+2029 written as `\u` escapes.
  ///
  /// These characters can only occur inside JSON strings, where the escapes mean the same
  /// characters, so the document parses to the same value; and with no `<` left, nothing in
  /// it can close the script element or open a comment.
  static func escaped(_ json: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(json.count + json.count / 64)
    var index = 0
    while index < json.count {
      let byte = json[index]
      switch byte {
      case UInt8(ascii: "<"): output.append(contentsOf: #"\u003c"#.utf8)
      case UInt8(ascii: ">"): output.append(contentsOf: #"\u003e"#.utf8)
      case UInt8(ascii: "&"): output.append(contentsOf: #"\u0026"#.utf8)
      case 0xE2
      where index + 2 < json.count && json[index + 1] == 0x80
        && (json[index + 2] == 0xA8 || json[index + 2] == 0xA9):
        output.append(contentsOf: (json[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
        index += 2
      default: output.append(byte)
      }
      index += 1
    }
    return output
  }
}
