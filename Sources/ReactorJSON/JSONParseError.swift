/// Why some bytes are not a JSON document, and where: every case carries the 1-based byte
/// column (the byte offset plus one) at which the problem was found.
///
/// ```swift
/// do {
///   _ = try JSONValue(parsing: #"{"a" 1}"#)
/// } catch {
///   print(error)  // column 6: expected ':' after object key, found '1'
/// }
/// ```
public enum JSONParseError: Error, Sendable, Hashable {
  /// A byte that cannot start or continue what the grammar allows here.
  ///
  /// `found` renders the character as the description shows it (`'}'`, `byte 0x01`) and
  /// `expected` says what would have been valid (`':' after object key`).
  case unexpectedCharacter(column: Int, found: String, expected: String)

  /// The input ended while `expected` was still needed; `column` is the input's length plus one.
  case unexpectedEnd(column: Int, expected: String)

  /// A backslash escape in a string that is not one of JSON's, or a `\u` escape that names a
  /// surrogate without its other half; `column` is the backslash's.
  case invalidEscape(column: Int, reason: String)

  /// A byte that does not begin a well-formed UTF-8 sequence: a stray continuation byte, a
  /// truncated or overlong sequence, an encoded surrogate or a code point above U+10FFFF.
  case invalidUTF8(column: Int, byte: UInt8)

  /// A raw control character (U+0000 to U+001F) inside a string, where JSON requires an escape.
  case unescapedControlCharacter(column: Int, byte: UInt8)

  /// A number that breaks JSON's grammar (a leading zero, a missing digit) or whose magnitude
  /// is too large for a `Double`.
  case invalidNumber(column: Int, reason: String)

  /// An object that names `key` twice; `column` is the second occurrence's opening quote.
  case duplicateKey(column: Int, key: String)

  /// Arrays and objects nested more than `limit` levels deep; `column` is the bracket that
  /// opens one level too many.
  case tooDeep(column: Int, limit: Int)

  /// More than whitespace after the document's value.
  case trailingCharacters(column: Int)
}

extension JSONParseError {
  /// The 1-based byte column at which the problem was found.
  public var column: Int {
    switch self {
    case .unexpectedCharacter(let column, _, _), .unexpectedEnd(let column, _),
      .invalidEscape(let column, _), .invalidUTF8(let column, _),
      .unescapedControlCharacter(let column, _), .invalidNumber(let column, _),
      .duplicateKey(let column, _), .tooDeep(let column, _), .trailingCharacters(let column):
      column
    }
  }
}

extension JSONParseError: CustomStringConvertible {
  /// One line: the column, then what is wrong, such as
  /// `column 14: expected ':' after object key, found '}'`.
  public var description: String {
    switch self {
    case .unexpectedCharacter(let column, let found, let expected):
      "column \(column): expected \(expected), found \(found)"
    case .unexpectedEnd(let column, let expected):
      "column \(column): expected \(expected), found end of input"
    case .invalidEscape(let column, let reason):
      "column \(column): invalid escape: \(reason)"
    case .invalidUTF8(let column, let byte):
      "column \(column): invalid UTF-8 sequence at byte \(Self.hex(byte))"
    case .unescapedControlCharacter(let column, let byte):
      "column \(column): control character \(Self.hex(byte)) must be escaped in a string"
    case .invalidNumber(let column, let reason):
      "column \(column): invalid number: \(reason)"
    case .duplicateKey(let column, let key):
      "column \(column): duplicate object key \"\(key)\""
    case .tooDeep(let column, let limit):
      "column \(column): arrays and objects nested more than \(limit) levels deep"
    case .trailingCharacters(let column):
      "column \(column): unexpected characters after the JSON value"
    }
  }

  /// `0x0A` style.
  static func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return "0x" + (byte < 0x10 ? "0" : "") + digits
  }
}
