/// The names schemas give types: `String(reflecting:)` without module prefixes.
///
/// `MyApp.CounterReactor.Action` becomes `CounterReactor.Action` and
/// `ReactorCore.Pulse<Swift.Optional<Swift.String>>` becomes `Pulse<Optional<String>>`. The
/// `(unknown context at $…)` and `(extension in …):` parts that local and private types carry
/// are dropped too, since they contain addresses that change from build to build.
enum TypeName {
  /// The schema name of `type`.
  static func of(_ type: Any.Type) -> String {
    strippingModules(from: strippingContexts(from: String(reflecting: type)))
  }

  /// Removes every `(unknown context at $…).` and `(extension in …):` part.
  static func strippingContexts(from name: String) -> String {
    var result = ""
    var rest = Substring(name)
    while let open = rest.firstIndex(of: "(") {
      let tail = rest[open...]
      let prefixes = ["(unknown context at ", "(extension in "]
      guard prefixes.contains(where: { tail.hasPrefix($0) }),
        let close = tail.firstIndex(of: ")")
      else {
        result += rest[...open]
        rest = rest[rest.index(after: open)...]
        continue
      }
      result += rest[..<open]
      rest = rest[rest.index(after: close)...]
      if let separator = rest.first, separator == "." || separator == ":" {
        rest = rest.dropFirst()
      }
    }
    return result + rest
  }

  /// Drops the first component of every dotted path that has more than one: the module.
  ///
  /// A name that continues a generic type (`G<Int>.Nested`) follows a dot, so it starts no
  /// path and is kept.
  static func strippingModules(from name: String) -> String {
    let characters = Array(name)
    var result = ""
    var index = 0
    while index < characters.count {
      let startsPath =
        isIdentifierCharacter(characters[index])
        && (index == 0
          || !(isIdentifierCharacter(characters[index - 1]) || characters[index - 1] == "."))
      guard startsPath else {
        result.append(characters[index])
        index += 1
        continue
      }
      var components: [String] = []
      var component = ""
      while index < characters.count {
        let character = characters[index]
        if isIdentifierCharacter(character) {
          component.append(character)
        } else if character == ".", index + 1 < characters.count,
          isIdentifierCharacter(characters[index + 1])
        {
          components.append(component)
          component = ""
        } else {
          break
        }
        index += 1
      }
      components.append(component)
      result += components.dropFirst(components.count > 1 ? 1 : 0).joined(separator: ".")
    }
    return result
  }

  private static func isIdentifierCharacter(_ character: Character) -> Bool {
    character == "_" || character == "$" || character.isLetter || character.isNumber
  }
}
