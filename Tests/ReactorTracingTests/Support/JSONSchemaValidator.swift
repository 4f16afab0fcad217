import ReactorTracing

/// Checks JSON values against a JSON Schema (draft 2020-12), for tests.
///
/// It supports exactly the keywords `docs/trace-format.schema.json` uses, and treats any other
/// keyword as an error instead of ignoring it, so the schema cannot silently outgrow it:
///
/// - annotations, ignored: `$schema` (must name draft 2020-12, at the root only), `$id` (at the
///   root only), `title`, `description`;
/// - `$defs`, and `$ref` to `#` or `#/$defs/name` (no other JSON pointers, no URIs);
/// - `type` (a name or an array of names; `integer` accepts integral numbers written with a
///   fraction, as the specification says), `const`, `enum`;
/// - `properties`, `required`, `additionalProperties`, `items` (one schema for every element);
/// - `minimum`, `minLength` (in Unicode code points), `pattern` (searched for, not anchored,
///   matching Unicode scalars; `$` matches only at the very end, as in ECMA-262);
/// - `oneOf` (exactly one), `anyOf`, `not`, and the Boolean schemas `true` and `false`.
///
/// The whole schema is checked when the validator is made: an unsupported keyword anywhere, a
/// `$ref` that does not resolve, a pattern that does not compile or a keyword with a value of
/// the wrong type is reported in ``schemaProblems`` and by every call of ``validate(_:against:)``.
///
/// ```swift
/// let validator = JSONSchemaValidator(schema: try JSONValue(parsing: schemaText))
/// let errors = validator.validate(try JSONValue(parsing: line), against: "#/$defs/event")
/// // ["/cause: oneOf matched 0 schemas"]
/// ```
///
/// Not `Sendable`: it keeps the schema's patterns compiled, and `Regex` is not `Sendable`.
struct JSONSchemaValidator {
  /// The dialect the schema must declare in `$schema`, if it declares one.
  static let dialect = "https://json-schema.org/draft/2020-12/schema"

  /// Every keyword the validator understands.
  static let supportedKeywords: Set<String> = [
    "$schema", "$id", "title", "description", "$defs", "$ref", "type", "const", "enum",
    "properties", "required", "additionalProperties", "items", "minimum", "minLength",
    "pattern", "oneOf", "anyOf", "not",
  ]

  /// The names `type` accepts.
  static let typeNames: Set<String> = [
    "null", "boolean", "object", "array", "number", "string", "integer",
  ]

  /// The root schema.
  let schema: JSONValue

  /// What is wrong with the schema itself, found by walking all of it; empty when the
  /// validator can use it.
  let schemaProblems: [JSONSchemaValidationError]

  private let patterns: [String: Regex<AnyRegexOutput>]

  /// A validator for `schema`, which is checked at once (see ``schemaProblems``).
  /// - Parameter schema: The root schema, an object or a Boolean.
  init(schema: JSONValue) {
    self.schema = schema
    var walk = SchemaWalk(root: schema)
    walk.check(schema, at: "#")
    schemaProblems = walk.problems
    patterns = walk.patterns
  }

  /// The reasons `instance` does not satisfy the schema at `reference`; empty when it does.
  ///
  /// When the schema itself has problems, those are returned instead, whatever the instance.
  /// - Parameters:
  ///   - instance: The value to check.
  ///   - reference: `#` for the root schema, or `#/$defs/name` for one of its definitions.
  /// - Returns: One error per failing keyword, with the JSON pointer of the failing value.
  func validate(_ instance: JSONValue, against reference: String = "#")
    -> [JSONSchemaValidationError]
  {
    guard schemaProblems.isEmpty else { return schemaProblems }
    guard let target = Self.resolve(reference, in: schema) else {
      return [
        .invalidSchema(
          keyword: "$ref", reason: "cannot resolve \(reference)", schemaLocation: reference)
      ]
    }
    return evaluate(
      instance, at: "", against: target, schemaLocation: reference, activeReferences: [])
  }

  /// The subschema `reference` names: `#` or `#/$defs/name`, with `~0` and `~1` escapes.
  static func resolve(_ reference: String, in root: JSONValue) -> JSONValue? {
    if reference == "#" { return root }
    let prefix = "#/$defs/"
    guard reference.hasPrefix(prefix) else { return nil }
    let token = String(reference.dropFirst(prefix.count))
    guard !token.contains("/"), !token.contains("%") else { return nil }
    let name = token.replacing("~1", with: "/").replacing("~0", with: "~")
    return root["$defs"]?[name]
  }

  /// A JSON pointer token for `name`: `~` written `~0` and `/` written `~1`.
  static func pointerToken(_ name: String) -> String {
    name.replacing("~", with: "~0").replacing("/", with: "~1")
  }

  // MARK: - Evaluation

  private func evaluate(
    _ instance: JSONValue, at location: String, against subschema: JSONValue,
    schemaLocation: String, activeReferences: Set<String>
  ) -> [JSONSchemaValidationError] {
    switch subschema {
    case .bool(true):
      return []
    case .bool(false):
      return [
        .invalid(
          location: location, keyword: "false", message: "false schema: no value is valid",
          schemaLocation: schemaLocation)
      ]
    case .object(let keywords):
      var errors: [JSONSchemaValidationError] = []
      for (keyword, value) in keywords.members {
        errors += evaluate(
          keyword: keyword, value: value, of: keywords, instance: instance, at: location,
          schemaLocation: schemaLocation, activeReferences: activeReferences)
      }
      return errors
    default:
      return [
        .invalidSchema(
          keyword: "schema", reason: "a schema must be an object or a Boolean",
          schemaLocation: schemaLocation)
      ]
    }
  }

  private func evaluate(
    keyword: String, value: JSONValue, of keywords: JSONObject, instance: JSONValue,
    at location: String, schemaLocation: String, activeReferences: Set<String>
  ) -> [JSONSchemaValidationError] {
    let keywordLocation = schemaLocation + "/" + Self.pointerToken(keyword)
    func failure(_ message: String, causes: [JSONSchemaValidationError] = [])
      -> [JSONSchemaValidationError]
    {
      [
        .invalid(
          location: location, keyword: keyword, message: message,
          schemaLocation: keywordLocation, causes: causes)
      ]
    }
    func malformed(_ reason: String) -> [JSONSchemaValidationError] {
      [.invalidSchema(keyword: keyword, reason: reason, schemaLocation: keywordLocation)]
    }
    func subschema(_ schema: JSONValue, _ suffix: String) -> [JSONSchemaValidationError] {
      evaluate(
        instance, at: location, against: schema, schemaLocation: keywordLocation + suffix,
        activeReferences: activeReferences)
    }

    switch keyword {
    case "$schema", "$id", "title", "description", "$defs":
      return []

    case "$ref":
      guard let reference = value.stringValue, let target = Self.resolve(reference, in: schema)
      else { return malformed("cannot resolve \(value.serializedString)") }
      let visit = reference + " at " + location
      guard !activeReferences.contains(visit) else {
        return malformed("\(reference) refers back to itself without consuming the value")
      }
      return evaluate(
        instance, at: location, against: target, schemaLocation: reference,
        activeReferences: activeReferences.union([visit]))

    case "type":
      let names = value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] }
      guard let names else { return malformed("must be a type name or an array of them") }
      if names.contains(where: { Self.instance(instance, hasType: $0) }) { return [] }
      let expected = names.count == 1 ? names[0] : "one of " + names.joined(separator: ", ")
      return failure("type: expected \(expected), found \(instance.kindName)")

    case "const":
      if instance == value { return [] }
      return failure("const: expected \(value.serializedString)")

    case "enum":
      guard let allowed = value.arrayValue else { return malformed("must be an array") }
      if allowed.contains(instance) { return [] }
      let list = allowed.map(\.serializedString).joined(separator: ", ")
      return failure("enum: \(instance.serializedString) is not one of \(list)")

    case "properties":
      guard let properties = value.objectValue else { return malformed("must be an object") }
      guard case .object(let object) = instance else { return [] }
      var errors: [JSONSchemaValidationError] = []
      for (name, propertySchema) in properties.members {
        guard let member = object[name] else { continue }
        let token = Self.pointerToken(name)
        errors += evaluate(
          member, at: location + "/" + token, against: propertySchema,
          schemaLocation: keywordLocation + "/" + token, activeReferences: activeReferences)
      }
      return errors

    case "required":
      guard let names = value.arrayValue?.compactMap(\.stringValue) else {
        return malformed("must be an array of strings")
      }
      guard case .object(let object) = instance else { return [] }
      return names.filter { object[$0] == nil }.flatMap { name in
        failure("required: \(JSONValue.string(name).serializedString) is missing")
      }

    case "additionalProperties":
      guard case .object(let object) = instance else { return [] }
      let declared = keywords["properties"]?.objectValue
      var errors: [JSONSchemaValidationError] = []
      for (name, member) in object.members where declared?[name] == nil {
        let memberLocation = location + "/" + Self.pointerToken(name)
        if value == false {
          errors.append(
            .invalid(
              location: memberLocation, keyword: keyword,
              message: "additionalProperties: member \(name) is not allowed",
              schemaLocation: keywordLocation))
        } else {
          errors += evaluate(
            member, at: memberLocation, against: value, schemaLocation: keywordLocation,
            activeReferences: activeReferences)
        }
      }
      return errors

    case "items":
      guard case .array(let elements) = instance else { return [] }
      return elements.indices.flatMap { index in
        evaluate(
          elements[index], at: location + "/\(index)", against: value,
          schemaLocation: keywordLocation, activeReferences: activeReferences)
      }

    case "minimum":
      guard Self.isNumber(value) else { return malformed("must be a number") }
      guard Self.isNumber(instance) else { return [] }
      if Self.compare(instance, value) >= 0 { return [] }
      return failure(
        "minimum: \(instance.serializedString) is less than \(value.serializedString)")

    case "minLength":
      guard let minimum = value.intValue, minimum >= 0 else {
        return malformed("must be a non-negative integer")
      }
      guard case .string(let string) = instance else { return [] }
      let length = string.unicodeScalars.count
      if length >= minimum { return [] }
      return failure("minLength: \(length) characters, at least \(minimum) required")

    case "pattern":
      guard let source = value.stringValue, let regex = patterns[source] else {
        return malformed("must be a regular expression")
      }
      guard case .string(let string) = instance else { return [] }
      if string.contains(regex) { return [] }
      return failure("pattern: \(instance.serializedString) does not match \(source)")

    case "oneOf", "anyOf":
      guard let branches = value.arrayValue, !branches.isEmpty else {
        return malformed("must be a non-empty array of schemas")
      }
      var matched = 0
      var causes: [JSONSchemaValidationError] = []
      for (index, branch) in branches.enumerated() {
        let errors = subschema(branch, "/\(index)")
        if let problems = Self.schemaProblems(in: errors) { return problems }
        if errors.isEmpty { matched += 1 } else { causes += errors }
      }
      if keyword == "anyOf" {
        return matched > 0 ? [] : failure("anyOf matched 0 schemas", causes: causes)
      }
      if matched == 1 { return [] }
      return failure("oneOf matched \(matched) schemas", causes: matched == 0 ? causes : [])

    case "not":
      let errors = subschema(value, "")
      if let problems = Self.schemaProblems(in: errors) { return problems }
      return errors.isEmpty ? failure("not: the value matches a schema it must not match") : []

    default:
      return [.unsupportedKeyword(keyword, schemaLocation: schemaLocation)]
    }
  }

  /// The errors that are about the schema, not the value, if there are any: combinators pass
  /// them up as they are instead of counting them as a failed branch, so that `not` or
  /// `anyOf` cannot turn an unusable schema into a pass.
  private static func schemaProblems(in errors: [JSONSchemaValidationError])
    -> [JSONSchemaValidationError]?
  {
    let problems = errors.flatMap(\.flattened).filter(\.isSchemaProblem)
    return problems.isEmpty ? nil : problems
  }

  private static func instance(_ instance: JSONValue, hasType name: String) -> Bool {
    switch (name, instance) {
    case ("null", .null), ("boolean", .bool), ("object", .object), ("array", .array),
      ("string", .string), ("number", .int), ("number", .uint), ("number", .double),
      ("integer", .int), ("integer", .uint):
      true
    case ("integer", .double(let value)):
      value.isFinite && value.rounded(.towardZero) == value
    default:
      false
    }
  }

  private static func isNumber(_ value: JSONValue) -> Bool {
    switch value {
    case .int, .uint, .double: true
    default: false
    }
  }

  /// Compares two numbers exactly, whatever their cases: negative, zero or positive as `a` is
  /// less than, equal to or greater than `b`.
  static func compare(_ a: JSONValue, _ b: JSONValue) -> Int {
    switch (a, b) {
    case (.int(let x), .int(let y)): return order(x, y)
    case (.uint(let x), .uint(let y)): return order(x, y)
    case (.int(let x), .uint(let y)): return x < 0 ? -1 : order(UInt64(x), y)
    case (.uint, .int): return -compare(b, a)
    case (.double(let x), .double(let y)): return order(x, y)
    case (.double(let x), _): return compare(double: x, integer: b)
    case (_, .double(let y)): return -compare(double: y, integer: a)
    default: return 0
    }
  }

  private static func compare(double: Double, integer: JSONValue) -> Int {
    // Compare the double's integral part exactly as an integer when it fits, then its
    // fraction; a double outside both integer ranges is beyond every integer.
    let whole = double.rounded(.down)
    let fractionSign = double > whole ? 1 : 0
    if let wholeInteger = Int64(exactly: whole) {
      let ordering = compare(.int(wholeInteger), integer)
      return ordering != 0 ? ordering : fractionSign
    }
    if let wholeInteger = UInt64(exactly: whole) {
      let ordering = compare(.uint(wholeInteger), integer)
      return ordering != 0 ? ordering : fractionSign
    }
    return double < 0 ? -1 : 1
  }

  private static func order<T: Comparable>(_ a: T, _ b: T) -> Int {
    a < b ? -1 : (a == b ? 0 : 1)
  }
}

/// The static check of a whole schema: every keyword supported and well formed, every `$ref`
/// resolvable, every pattern compiled.
private struct SchemaWalk {
  let root: JSONValue
  var problems: [JSONSchemaValidationError] = []
  var patterns: [String: Regex<AnyRegexOutput>] = [:]

  init(root: JSONValue) {
    self.root = root
  }

  mutating func check(_ schema: JSONValue, at location: String) {
    guard case .object(let keywords) = schema else {
      if schema.boolValue == nil {
        let reason = "a schema must be an object or a Boolean, found \(schema.kindName)"
        problems.append(.invalidSchema(keyword: "schema", reason: reason, schemaLocation: location))
      }
      return
    }
    for (keyword, value) in keywords.members {
      let here = location + "/" + JSONSchemaValidator.pointerToken(keyword)
      func problem(_ reason: String) {
        problems.append(.invalidSchema(keyword: keyword, reason: reason, schemaLocation: here))
      }
      switch keyword {
      case "$schema":
        if location != "#" { problem("is supported only at the root") }
        if value.stringValue != JSONSchemaValidator.dialect {
          problem("must be \(JSONSchemaValidator.dialect)")
        }
      case "$id":
        if location != "#" { problem("is supported only at the root") }
        if value.stringValue == nil { problem("must be a string") }
      case "title", "description":
        if value.stringValue == nil { problem("must be a string") }
      case "$defs", "properties":
        guard let members = value.objectValue else {
          problem("must be an object of schemas")
          continue
        }
        for (name, subschema) in members.members {
          check(subschema, at: here + "/" + JSONSchemaValidator.pointerToken(name))
        }
      case "$ref":
        guard let reference = value.stringValue,
          JSONSchemaValidator.resolve(reference, in: root) != nil
        else {
          problem("cannot resolve \(value.serializedString): only #/$defs/name is supported")
          continue
        }
      case "type":
        let names = value.arrayValue.map { $0.compactMap(\.stringValue) } ?? []
        let isValid =
          if let name = value.stringValue {
            JSONSchemaValidator.typeNames.contains(name)
          } else {
            !names.isEmpty && names.count == value.arrayValue?.count
              && Set(names).count == names.count
              && names.allSatisfy(JSONSchemaValidator.typeNames.contains)
          }
        if !isValid { problem("must be a type name or an array of distinct type names") }
      case "const":
        break
      case "enum":
        if value.arrayValue?.isEmpty != false { problem("must be a non-empty array") }
      case "required":
        let names = value.arrayValue?.compactMap(\.stringValue)
        if names == nil || names?.count != value.arrayValue?.count
          || Set(names ?? []).count != names?.count
        {
          problem("must be an array of distinct strings")
        }
      case "additionalProperties", "items", "not":
        if keyword == "items", value.arrayValue != nil {
          problem("an array of schemas (prefixItems in draft 2020-12) is not supported")
          continue
        }
        check(value, at: here)
      case "minimum":
        switch value {
        case .int, .uint, .double: break
        default: problem("must be a number")
        }
      case "minLength":
        if (value.intValue ?? -1) < 0 { problem("must be a non-negative integer") }
      case "pattern":
        guard let source = value.stringValue else {
          problem("must be a string")
          continue
        }
        do {
          patterns[source] = try Regex(source).matchingSemantics(.unicodeScalar)
        } catch {
          problem("\(value.serializedString) does not compile: \(error)")
        }
      case "oneOf", "anyOf":
        guard let branches = value.arrayValue, !branches.isEmpty else {
          problem("must be a non-empty array of schemas")
          continue
        }
        for (index, branch) in branches.enumerated() { check(branch, at: here + "/\(index)") }
      default:
        problems.append(.unsupportedKeyword(keyword, schemaLocation: location))
      }
    }
  }
}

/// Why a value does not satisfy a schema, or why the schema cannot be used.
enum JSONSchemaValidationError: Error, Hashable, Sendable {
  /// The value at `location` (a JSON pointer, `""` for the whole value) fails `keyword`.
  ///
  /// `message` starts with the keyword: `oneOf matched 0 schemas`. `causes` holds why each
  /// branch failed when a `oneOf` or `anyOf` matched none.
  case invalid(
    location: String, keyword: String, message: String, schemaLocation: String,
    causes: [JSONSchemaValidationError] = [])
  /// The schema uses a keyword the validator does not support.
  case unsupportedKeyword(String, schemaLocation: String)
  /// A keyword's value is malformed, or a `$ref` does not resolve.
  case invalidSchema(keyword: String, reason: String, schemaLocation: String)
}

extension JSONSchemaValidationError: CustomStringConvertible {
  /// One line: `/cause: oneOf matched 0 schemas`, or for a schema problem,
  /// `#/$defs/event: unsupported keyword if`.
  var description: String {
    switch self {
    case .invalid(let location, _, let message, _, _):
      "\(location.isEmpty ? "(root)" : location): \(message)"
    case .unsupportedKeyword(let keyword, let schemaLocation):
      "\(schemaLocation): unsupported keyword \(keyword)"
    case .invalidSchema(let keyword, let reason, let schemaLocation):
      "\(schemaLocation): \(keyword) \(reason)"
    }
  }
}

extension JSONSchemaValidationError {
  /// The failing value's JSON pointer; `nil` for a problem with the schema.
  var location: String? {
    if case .invalid(let location, _, _, _, _) = self { return location }
    return nil
  }

  /// The keyword that failed, or that the validator does not support.
  var keyword: String {
    switch self {
    case .invalid(_, let keyword, _, _, _): keyword
    case .unsupportedKeyword(let keyword, _): keyword
    case .invalidSchema(let keyword, _, _): keyword
    }
  }

  /// Where in the schema the keyword is: `#/$defs/mutation/oneOf`.
  var schemaLocation: String {
    switch self {
    case .invalid(_, _, _, let schemaLocation, _): schemaLocation
    case .unsupportedKeyword(_, let schemaLocation): schemaLocation
    case .invalidSchema(_, _, let schemaLocation): schemaLocation
    }
  }

  /// Whether the schema is at fault rather than the value.
  var isSchemaProblem: Bool {
    if case .invalid = self { return false }
    return true
  }

  /// This error followed by its causes and theirs, depth first.
  var flattened: [JSONSchemaValidationError] {
    guard case .invalid(_, _, _, _, let causes) = self else { return [self] }
    return [self] + causes.flatMap(\.flattened)
  }

  /// The error and, indented below it, its causes, each with its schema location: for test
  /// failure messages.
  var explanation: String {
    explanation(indent: "")
  }

  private func explanation(indent: String) -> String {
    var text = "\(indent)\(description)  [\(schemaLocation)]"
    if case .invalid(_, _, _, _, let causes) = self {
      for cause in causes { text += "\n" + cause.explanation(indent: indent + "  ") }
    }
    return text
  }
}
