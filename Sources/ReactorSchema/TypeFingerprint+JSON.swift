public import ReactorJSON

extension TypeFingerprint {
  /// The fingerprint as JSON:
  /// `{"type": "CounterReactor.Action", "codable": true, "digest": "16 hex digits",
  /// "shape": node}`, without `shape` when there is none.
  public var json: JSONValue {
    var object = JSONObject([
      ("type", .string(name)),
      ("codable", .bool(isCodable)),
      ("digest", .string(digest.description)),
    ])
    object["shape"] = shape?.json
    return .object(object)
  }

  /// Reads a fingerprint from its ``json``; members this version does not know are ignored.
  /// - Parameter json: A fingerprint object.
  /// - Throws: ``TraceSchemaError`` with the path (from `$`) of the first malformed value.
  public init(json: JSONValue) throws(TraceSchemaError) {
    try self.init(json: json, path: "$")
  }

  /// Reads a fingerprint found at `path`.
  init(json: JSONValue, path: String) throws(TraceSchemaError) {
    let object = try SchemaJSON.object(json, at: path)
    let name = try SchemaJSON.string(
      try SchemaJSON.member("type", of: object, at: path),
      at: SchemaJSON.path(path, member: "type")
    )
    let isCodable = try SchemaJSON.bool(
      try SchemaJSON.member("codable", of: object, at: path),
      at: SchemaJSON.path(path, member: "codable")
    )
    let digestPath = SchemaJSON.path(path, member: "digest")
    let digestText = try SchemaJSON.string(
      try SchemaJSON.member("digest", of: object, at: path),
      at: digestPath
    )
    guard let digest = TraceHash(hex: digestText) else {
      throw .malformedDigest(path: digestPath, text: digestText)
    }
    var shape: TypeSchema?
    if let value = object["shape"], value != .null {
      shape = try TypeSchema(json: value, path: SchemaJSON.path(path, member: "shape"))
    }
    self.init(name: name, isCodable: isCodable, shape: shape)
    self.digest = digest
  }
}
