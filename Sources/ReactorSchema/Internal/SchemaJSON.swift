import ReactorJSON

/// Reading schema JSON with errors that say where: typed accessors that throw
/// ``TraceSchemaError`` with the JSON path, and the path notation itself.
enum SchemaJSON {
  /// The members that make an object a schema node, in the order they are looked for.
  static let nodeKinds = [
    "struct", "enum", "wrapper", "optional", "array", "set", "dictionary", "tuple", "ref",
    "opaque",
  ]

  /// The path of member `key` of the object at `path`: `$.a.b`, or `$.a["b c"]` for a key that
  /// is not an identifier.
  static func path(_ path: String, member key: String) -> String {
    let isIdentifier =
      !key.isEmpty && key.utf8.first.map { !($0 >= 0x30 && $0 <= 0x39) } == true
      && key.utf8.allSatisfy { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
          || byte == 0x5F
      }
    if isIdentifier { return "\(path).\(key)" }
    return "\(path)[\(JSONValue.string(key).serializedString)]"
  }

  /// The path of element `index` of the array at `path`: `$.a[2]`.
  static func path(_ path: String, index: Int) -> String {
    "\(path)[\(index)]"
  }

  /// The object `value` is.
  static func object(_ value: JSONValue, at path: String) throws(TraceSchemaError) -> JSONObject {
    guard let object = value.objectValue else {
      throw .wrongType(path: path, expected: "object", found: value.kindName)
    }
    return object
  }

  /// The string `value` is.
  static func string(_ value: JSONValue, at path: String) throws(TraceSchemaError) -> String {
    guard let string = value.stringValue else {
      throw .wrongType(path: path, expected: "string", found: value.kindName)
    }
    return string
  }

  /// The Boolean `value` is.
  static func bool(_ value: JSONValue, at path: String) throws(TraceSchemaError) -> Bool {
    guard let boolean = value.boolValue else {
      throw .wrongType(path: path, expected: "boolean", found: value.kindName)
    }
    return boolean
  }

  /// The elements of the array `value` is.
  static func array(_ value: JSONValue, at path: String) throws(TraceSchemaError) -> [JSONValue] {
    guard let elements = value.arrayValue else {
      throw .wrongType(path: path, expected: "array", found: value.kindName)
    }
    return elements
  }

  /// The member `key` of `object`, which must be there.
  static func member(
    _ key: String,
    of object: JSONObject,
    at path: String
  ) throws(TraceSchemaError) -> JSONValue {
    guard let value = object[key] else { throw .missingMember(path: path, member: key) }
    return value
  }
}
