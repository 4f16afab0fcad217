public import ReactorJSON

extension TypeSchema {
  /// The schema as JSON, the form trace headers carry.
  ///
  /// - A primitive is its name: `"Int"`.
  /// - `{"optional": node}`, `{"array": node}`, `{"set": node}`,
  ///   `{"dictionary": node, "key": node}`, `{"tuple": [node, …]}`.
  /// - `{"struct": "Name", "fields": {"a": node, …}}`, with `"partial": true` when partial.
  /// - `{"wrapper": "Name", "value": node}`.
  /// - `{"enum": "Name", "cases": {"increase": {}, "setLoading": {"_0": "Bool"}}}`, with
  ///   `"partial": true` when partial; a raw-value enum adds `"rawValue": "String"` and
  ///   `"rawValues": {"home": "Home", …}` for the raw values it knows.
  /// - `{"ref": "Name"}`, `{"opaque": "Name"}`.
  public var json: JSONValue {
    switch self {
    case .primitive(let name):
      return .string(name)
    case .optional(let wrapped):
      return ["optional": wrapped.json]
    case .array(let element):
      return ["array": element.json]
    case .set(let element):
      return ["set": element.json]
    case .dictionary(let key, let value):
      return ["dictionary": value.json, "key": key.json]
    case .tuple(let elements):
      return ["tuple": .array(elements.map(\.json))]
    case .structure(let name, let fields, let isPartial):
      var object = JSONObject([("struct", .string(name)), ("fields", Self.json(of: fields))])
      if isPartial { object["partial"] = true }
      return .object(object)
    case .wrapper(let name, let value):
      return ["wrapper": .string(name), "value": value.json]
    case .enumeration(let name, let rawValue, let cases, let isPartial):
      var object = JSONObject([
        ("enum", .string(name)),
        ("cases", .object(JSONObject(cases.map { ($0.name, Self.json(of: $0.fields)) }))),
      ])
      if let rawValue { object["rawValue"] = .string(rawValue) }
      let rawValues = cases.compactMap { enumCase in enumCase.rawValue.map { (enumCase.name, $0) } }
      if !rawValues.isEmpty { object["rawValues"] = .object(JSONObject(rawValues)) }
      if isPartial { object["partial"] = true }
      return .object(object)
    case .reference(let name):
      return ["ref": .string(name)]
    case .opaque(let name):
      return ["opaque": .string(name)]
    }
  }

  /// Reads a schema from its ``json``; members this version does not know are ignored.
  /// - Parameter json: A schema node.
  /// - Throws: ``TraceSchemaError`` with the path (from `$`) of the first malformed value.
  public init(json: JSONValue) throws(TraceSchemaError) {
    try self.init(json: json, path: "$")
  }

  /// Reads a schema node found at `path`.
  init(json: JSONValue, path: String) throws(TraceSchemaError) {
    if case .string(let name) = json {
      self = .primitive(name)
      return
    }
    guard case .object(let object) = json else {
      throw .wrongType(path: path, expected: "string or object", found: json.kindName)
    }
    guard let kind = SchemaJSON.nodeKinds.first(where: { object[$0] != nil }),
      let content = object[kind]
    else { throw .unknownNode(path: path) }
    let contentPath = SchemaJSON.path(path, member: kind)

    func node(_ key: String) throws(TraceSchemaError) -> TypeSchema {
      let value = try SchemaJSON.member(key, of: object, at: path)
      return try TypeSchema(json: value, path: SchemaJSON.path(path, member: key))
    }
    func isPartial() throws(TraceSchemaError) -> Bool {
      guard let value = object["partial"] else { return false }
      return try SchemaJSON.bool(value, at: SchemaJSON.path(path, member: "partial"))
    }

    switch kind {
    case "struct":
      let name = try SchemaJSON.string(content, at: contentPath)
      let fields = try Self.fields(
        json: try SchemaJSON.member("fields", of: object, at: path),
        path: SchemaJSON.path(path, member: "fields")
      )
      self = .structure(name: name, fields: fields, isPartial: try isPartial())
    case "enum":
      let name = try SchemaJSON.string(content, at: contentPath)
      self = try Self.enumeration(object, name: name, path: path)
    case "wrapper":
      let name = try SchemaJSON.string(content, at: contentPath)
      self = .wrapper(name: name, value: try node("value"))
    case "optional":
      self = .optional(try node(kind))
    case "array":
      self = .array(try node(kind))
    case "set":
      self = .set(try node(kind))
    case "dictionary":
      self = .dictionary(key: try node("key"), value: try node(kind))
    case "tuple":
      var elements: [TypeSchema] = []
      for (index, element) in try SchemaJSON.array(content, at: contentPath).enumerated() {
        let elementPath = SchemaJSON.path(contentPath, index: index)
        elements.append(try TypeSchema(json: element, path: elementPath))
      }
      self = .tuple(elements)
    case "ref":
      self = .reference(try SchemaJSON.string(content, at: contentPath))
    default:
      self = .opaque(try SchemaJSON.string(content, at: contentPath))
    }
  }

  private static func enumeration(
    _ object: JSONObject,
    name: String,
    path: String
  ) throws(TraceSchemaError) -> TypeSchema {
    let casesPath = SchemaJSON.path(path, member: "cases")
    let casesObject = try SchemaJSON.object(
      try SchemaJSON.member("cases", of: object, at: path),
      at: casesPath
    )
    var rawValueType: String?
    if let value = object["rawValue"] {
      rawValueType = try SchemaJSON.string(value, at: SchemaJSON.path(path, member: "rawValue"))
    }
    var rawValues = JSONObject()
    if let value = object["rawValues"] {
      rawValues = try SchemaJSON.object(value, at: SchemaJSON.path(path, member: "rawValues"))
    }
    var cases: [Case] = []
    for (caseName, payload) in casesObject.members {
      let casePath = SchemaJSON.path(casesPath, member: caseName)
      let fields = try Self.fields(json: payload, path: casePath)
      cases.append(Case(name: caseName, rawValue: rawValues[caseName], fields: fields))
    }
    var isPartial = false
    if let value = object["partial"] {
      isPartial = try SchemaJSON.bool(value, at: SchemaJSON.path(path, member: "partial"))
    }
    return .enumeration(name: name, rawValue: rawValueType, cases: cases, isPartial: isPartial)
  }

  private static func fields(json: JSONValue, path: String) throws(TraceSchemaError) -> [Field] {
    var fields: [Field] = []
    for (name, value) in try SchemaJSON.object(json, at: path).members {
      let fieldPath = SchemaJSON.path(path, member: name)
      fields.append(Field(name: name, schema: try TypeSchema(json: value, path: fieldPath)))
    }
    return fields
  }

  private static func json(of fields: [Field]) -> JSONValue {
    .object(JSONObject(fields.map { ($0.name, $0.schema.json) }))
  }
}
