public import ReactorJSON

extension TraceSchema {
  /// The schema as JSON: `{"action": fingerprint, "mutation": fingerprint,
  /// "state": fingerprint}`, each as ``TypeFingerprint/json``.
  public var json: JSONValue {
    ["action": action.json, "mutation": mutation.json, "state": state.json]
  }

  /// Reads a schema from its ``json``; members this version does not know are ignored.
  /// - Parameter json: A schema object.
  /// - Throws: ``TraceSchemaError`` with the path (from `$`) of the first malformed value.
  public init(json: JSONValue) throws(TraceSchemaError) {
    let object = try SchemaJSON.object(json, at: "$")
    func fingerprint(_ key: String) throws(TraceSchemaError) -> TypeFingerprint {
      let value = try SchemaJSON.member(key, of: object, at: "$")
      return try TypeFingerprint(json: value, path: SchemaJSON.path("$", member: key))
    }
    self.init(
      action: try fingerprint("action"),
      mutation: try fingerprint("mutation"),
      state: try fingerprint("state")
    )
  }
}
