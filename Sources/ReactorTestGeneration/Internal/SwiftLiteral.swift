import ReactorTracing

/// Swift source text for values read from traces.
enum SwiftLiteral {
  /// A string literal of `text`: a raw literal when it holds quotes or backslashes, with
  /// enough `#`s that nothing inside ends it.
  static func string(_ text: String) -> String {
    let needsRaw = text.contains("\"") || text.contains("\\")
    guard needsRaw else { return "\"" + escapedControlCharacters(text) + "\"" }
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    return hashes + "\"" + text + "\"" + hashes
  }

  /// Control characters as escapes; JSON text has none, a label may.
  private static func escapedControlCharacters(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }

  /// A Swift expression for an enum value encoded as `{"case": {…}}`, when it is a case
  /// without payload (`.increase`) or with one unlabelled or labelled scalar
  /// (`.updateQuery("swift")`, `.toggle(id: 2)`); `nil` otherwise, for the caller to decode
  /// the JSON instead.
  static func enumCase(_ value: JSONValue) -> String? {
    guard case .object(let object) = value, object.count == 1,
      case .object(let payload) = object.members[0].value,
      isIdentifier(object.members[0].key)
    else { return nil }
    let name = "." + object.members[0].key
    guard !payload.isEmpty else { return name }
    guard payload.count == 1, let argument = scalar(payload.members[0].value) else { return nil }
    let label = payload.members[0].key
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
    let keywords: Set<String> = ["self", "Self", "init", "default", "case", "class", "struct"]
    return !keywords.contains(text)
      && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && text.allSatisfy(\.isASCII)
  }

  /// A Swift identifier made from a file name: `github-search.trace.jsonl` → `githubSearch`.
  static func identifier(fromFileName name: String) -> String {
    let base = name.split(separator: "/").last.map(String.init) ?? name
    let stem = base.split(separator: ".").first.map(String.init) ?? base
    let words = stem.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
    var result = words.enumerated().map { index, word in
      index == 0 ? word.lowercased() : word.prefix(1).uppercased() + word.dropFirst().lowercased()
    }.joined()
    if result.isEmpty || result.first!.isNumber { result = "trace" + result }
    return result
  }
}
