package import ReactorTracing

/// Swift source text for values read from traces (`package`: the fuzz target runs it).
package enum SwiftLiteral {
  /// A string literal of `text`, on one line, that compiles to exactly `text`: the one
  /// writer of every string literal in a generated test.
  ///
  /// A raw literal when it holds quotes or backslashes, with enough `#`s that nothing inside
  /// ends it; control characters, line breaks and bidirectional controls (which Swift refuses
  /// in a one-line literal, or which would hide what the source says) as `\u{…}` escapes,
  /// written with the literal's `#`s.
  package static func string(_ text: String) -> String {
    pieces(text, width: .max)[0]
  }

  /// String literals that, concatenated with `+`, compile to exactly `text`, each at most
  /// `width` characters long (when one character's escape is longer, it has a piece of its
  /// own): how a generated test keeps a long expected value within the line length.
  ///
  /// Every piece is written as ``string(_:)`` writes `text`, with the same `#`s (the ones
  /// `text` needs, which are enough for any part of it). Pieces end between characters.
  package static func pieces(_ text: String, width: Int) -> [String] {
    // Compared as bytes, as the compiler reads them: a combining mark after `"#` makes
    // another Character, but still ends the literal. One pass: the literal needs one `#`
    // more than the longest run of them after a quote or backslash (issue 40: asking for
    // each longer run in turn took quadratic time on a long run of `#`s).
    let bytes = Array(text.utf8)
    var hashes = ""
    if bytes.contains(UInt8(ascii: "\"")) || bytes.contains(UInt8(ascii: "\\")) {
      var longest = 0
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
        var run = 0
        while index < bytes.count, bytes[index] == UInt8(ascii: "#") {
          run += 1
          index += 1
        }
        longest = max(longest, run)
      }
      hashes = String(repeating: "#", count: longest + 1)
    }
    let delimiters = 2 * (hashes.count + 1)
    var pieces: [String] = []
    var piece = ""
    // Scalars, not Characters: never fewer than the characters the line holds.
    var pieceLength = 0
    for character in text {
      var written = ""
      for scalar in character.unicodeScalars {
        if needsEscape(scalar) {
          written += "\\" + hashes + "u{" + String(scalar.value, radix: 16) + "}"
        } else {
          written.unicodeScalars.append(scalar)
        }
      }
      let length = written.unicodeScalars.count
      if pieceLength > 0, delimiters + pieceLength + length > width {
        pieces.append(hashes + "\"" + piece + "\"" + hashes)
        piece = ""
        pieceLength = 0
      }
      piece += written
      pieceLength += length
    }
    pieces.append(hashes + "\"" + piece + "\"" + hashes)
    return pieces
  }

  /// Whether a scalar must be written as an escape: a control character (C0, DEL, C1), a
  /// line or paragraph separator, or a bidirectional control.
  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
    case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// Swift's keywords, which a name must be written in backticks to be.
  private static let keywords: Set<String> = [
    "Any", "Self", "Type", "_", "as", "associatedtype", "await", "break", "case", "catch",
    "class", "continue", "default", "defer", "deinit", "do", "else", "enum", "extension",
    "fallthrough", "false", "fileprivate", "for", "func", "guard", "if", "import", "in",
    "init", "inout", "internal", "is", "let", "nil", "open", "operator", "private",
    "precedencegroup", "protocol", "public", "repeat", "rethrows", "return", "self",
    "static", "struct", "subscript", "super", "switch", "throw", "throws", "true", "try",
    "typealias", "var", "where", "while",
  ]

  /// `name` as it must be written where a declaration or member is named: in backticks
  /// when it is a keyword (`` `default` ``), as is otherwise.
  static func escapedIdentifier(_ name: String) -> String {
    keywords.contains(name) ? "`" + name + "`" : name
  }

  /// A Swift expression for an enum value encoded as `{"case": {…}}`, when it is a case
  /// without payload (`.increase`) or with one unlabelled or labelled scalar
  /// (`.updateQuery("swift")`, `.toggle(id: 2)`); `nil` otherwise, for the caller to decode
  /// the JSON instead.
  ///
  /// The schema the trace recorded for the enum tells `{"setFilter": {}}` apart: a case
  /// without payload, or one whose `Optional` payload was `nil` (synthesized `Codable` omits
  /// it), which is written `.setFilter(nil)`. Without the case in a schema, an empty payload
  /// is decoded from the JSON, which is right either way.
  ///
  /// - Parameters:
  ///   - value: The value as the trace encodes it.
  ///   - schema: The enum's schema, from the trace's header, if it has one.
  /// - Returns: The expression, or `nil`.
  package static func enumCase(_ value: JSONValue, schema: TypeSchema?) -> String? {
    guard case .object(let object) = value, object.count == 1,
      case .object(let payload) = object.members[0].value,
      isIdentifier(object.members[0].key)
    else { return nil }
    let caseName = object.members[0].key
    let name = "." + caseName
    guard case .enumeration(_, _, let cases, _)? = schema,
      let schemaCase = cases.first(where: { $0.name == caseName })
    else {
      guard !payload.isEmpty, payload.count == 1, let argument = scalar(payload.members[0].value)
      else { return nil }
      return call(name, label: payload.members[0].key, argument: argument)
    }
    guard !schemaCase.fields.isEmpty else { return payload.isEmpty ? name : nil }
    // Labelled fields come sorted by name, which need not be their order in the case: only
    // one is written out.
    guard schemaCase.fields.count == 1, payload.count <= 1 else { return nil }
    let field = schemaCase.fields[0]
    let argument: String
    switch payload.members.first {
    case nil:
      guard case .optional = field.schema else { return nil }
      argument = "nil"
    case let member? where member.key == field.name:
      if member.value == .null, case .optional = field.schema {
        argument = "nil"
      } else {
        // A literal stands for a primitive only: a string is no `URL` or raw-value enum.
        guard field.schema.unwrappingOptional.isPrimitive, let scalar = scalar(member.value)
        else { return nil }
        argument = scalar
      }
    default:
      return nil
    }
    return call(name, label: field.name, argument: argument)
  }

  /// `.name(argument)` for the label `_0`, `.name(label: argument)` for another identifier.
  private static func call(_ name: String, label: String, argument: String) -> String? {
    if label == "_0" { return name + "(" + argument + ")" }
    guard isIdentifier(label) else { return nil }
    return name + "(" + label + ": " + argument + ")"
  }

  private static func scalar(_ value: JSONValue) -> String? {
    switch value {
    case .bool(let flag): flag ? "true" : "false"
    case .int(let number): String(number)
    case .string(let text): string(text)
    default: nil
    }
  }

  private static func isIdentifier(_ text: String) -> Bool {
    guard let first = text.first, first.isLetter || first == "_" else { return false }
    return !keywords.contains(text)
      && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && text.allSatisfy(\.isASCII)
  }

  /// A Swift identifier made from a file name: `github-search.trace.jsonl` → `githubSearch`.
  package static func identifier(fromFileName name: String) -> String {
    let base = name.split(separator: "/").last.map(String.init) ?? name
    let stem = base.split(separator: ".").first.map(String.init) ?? base
    // ASCII letters and digits only: every name made of them is a Swift identifier (or a
    // keyword, which ``escapedIdentifier(_:)`` puts in backticks).
    let words = stem.split(whereSeparator: {
      !$0.isASCII || (!$0.isLetter && !$0.isNumber)
    })
    var result = words.enumerated().map { index, word in
      index == 0 ? word.lowercased() : word.prefix(1).uppercased() + word.dropFirst().lowercased()
    }.joined()
    if result.isEmpty || result.first!.isNumber { result = "trace" + result }
    return result
  }
}

extension TypeSchema {
  /// The schema an optional wraps, all the way down; the schema itself otherwise.
  fileprivate var unwrappingOptional: TypeSchema {
    if case .optional(let wrapped) = self { return wrapped.unwrappingOptional }
    return self
  }

  fileprivate var isPrimitive: Bool {
    if case .primitive = self { return true }
    return false
  }
}
