import ReactorJSON
import ReactorSchema
import Testing

@Suite struct SchemaJSONTests {
  private let schema = TraceSchema(
    action: Counter.Action.self,
    mutation: Expression.self,
    state: Catalog.self
  )

  @Test func traceSchemaRoundTripsThroughJSON() throws {
    let decoded = try TraceSchema(json: schema.json)
    #expect(decoded == schema)
    #expect(decoded.json.serializedString == schema.json.serializedString)
  }

  @Test func fingerprintsOfEveryKindOfTypeRoundTrip() throws {
    let fingerprints = [
      TypeFingerprint(of: Payload.self), TypeFingerprint(of: Tab.self),
      TypeFingerprint(of: Urgency.self), TypeFingerprint(of: TreeNode.self),
      TypeFingerprint(of: Alerts.self), TypeFingerprint(of: HoldsFailures.self),
      TypeFingerprint(of: Wrapped.self), TypeFingerprint(of: NotCodable.self),
      TypeFingerprint(of: DecodableOnly.self), TypeFingerprint(of: Int.self),
    ]
    for fingerprint in fingerprints {
      #expect(try TypeFingerprint(json: fingerprint.json) == fingerprint)
    }
  }

  @Test func everyNodeKindRoundTrips() throws {
    let field = { (name: String, schema: TypeSchema) in TypeSchema.Field(name: name, schema: schema)
    }
    let shape = TypeSchema.structure(
      name: "All",
      fields: [
        field("a", .array(.primitive("Int"))),
        field("b", .dictionary(key: .primitive("Int"), value: .set(.primitive("String")))),
        field("c", .optional(.reference("All"))),
        field("d", .tuple([.primitive("Double"), .opaque("Thing")])),
        field("e", .wrapper(name: "ID", value: .primitive("String"))),
        field(
          "f",
          .enumeration(
            name: "E",
            rawValue: "Int",
            cases: [
              TypeSchema.Case(name: "x", rawValue: 1),
              TypeSchema.Case(name: "y"),
            ],
            isPartial: true
          )
        ),
      ],
      isPartial: true
    )
    #expect(try TypeSchema(json: shape.json) == shape)
  }

  @Test func fingerprintJSONFollowsTheGrammar() {
    let json = TypeFingerprint(of: Counter.Action.self).json
    #expect(json["type"] == "Counter.Action")
    #expect(json["codable"] == true)
    #expect(json["digest"]?.stringValue?.utf8.count == 16)
    let expectedShape = """
      {"cases":{"decrease":{},"increase":{},"setLoading":{"_0":"Bool"},\
      "setUser":{"age":"Int","name":"String"}},"enum":"Counter.Action"}
      """
    #expect(json["shape"]?.serializedString == expectedShape)
    #expect(TypeFingerprint(of: NotCodable.self).json["shape"] == nil)
  }

  @Test func schemaJSONHasTheThreeFingerprints() {
    #expect(schema.json.objectValue?.keys == ["action", "mutation", "state"])
  }

  @Test func unknownMembersAreIgnored() throws {
    var json = try #require(schema.json.objectValue)
    json["version"] = 2
    var state = try #require(json["state"]?.objectValue)
    state["comment"] = "added by a newer writer"
    var shape = try #require(state["shape"]?.objectValue)
    shape["doc"] = "fields of the catalog"
    state["shape"] = .object(shape)
    json["state"] = .object(state)
    #expect(try TraceSchema(json: .object(json)) == schema)
  }

  @Test func readDigestIsKeptAsRecorded() throws {
    var json = try #require(TypeFingerprint(of: Tab.self).json.objectValue)
    json["digest"] = "0123456789abcdef"
    #expect(try TypeFingerprint(json: .object(json)).digest == TraceHash(0x0123_4567_89ab_cdef))
  }

  @Test func malformedSchemaNamesThePathOfTheProblem() {
    let cases: [(JSONValue, TraceSchemaError)] = [
      (3, .wrongType(path: "$", expected: "string or object", found: "number")),
      (
        ["optional": ["array": true]],
        .wrongType(path: "$.optional.array", expected: "string or object", found: "boolean")
      ),
      (["struct": "S"], .missingMember(path: "$", member: "fields")),
      (
        ["struct": 1, "fields": [:]],
        .wrongType(path: "$.struct", expected: "string", found: "number")
      ),
      (["struct": "S", "fields": ["a b": ["what": 1]]], .unknownNode(path: #"$.fields["a b"]"#)),
      (
        ["enum": "E", "cases": ["x": []]],
        .wrongType(path: "$.cases.x", expected: "object", found: "array")
      ),
      (
        ["tuple": ["Int", 2]],
        .wrongType(path: "$.tuple[1]", expected: "string or object", found: "number")
      ),
      (["dictionary": "Int"], .missingMember(path: "$", member: "key")),
      (
        ["struct": "S", "fields": [:], "partial": "yes"],
        .wrongType(path: "$.partial", expected: "boolean", found: "string")
      ),
    ]
    for (json, expected) in cases {
      #expect(throws: expected) { try TypeSchema(json: json) }
    }
  }

  @Test func malformedFingerprintsNameThePathOfTheProblem() throws {
    var json = try #require(schema.json.objectValue)
    var state = try #require(json["state"]?.objectValue)
    state["digest"] = "xyz"
    json["state"] = .object(state)
    #expect(throws: TraceSchemaError.malformedDigest(path: "$.state.digest", text: "xyz")) {
      try TraceSchema(json: .object(json))
    }
    json["action"] = nil
    #expect(throws: TraceSchemaError.missingMember(path: "$", member: "action")) {
      try TraceSchema(json: .object(json))
    }
  }

  @Test func errorDescriptionsAreOneLineWithThePath() {
    let error = TraceSchemaError.wrongType(
      path: "$.state.shape", expected: "object", found: "array")
    #expect(error.description == "$.state.shape: expected object, found array")
    #expect(
      TraceSchemaError.missingMember(path: "$.action", member: "type").description
        == "$.action: missing member 'type'"
    )
    #expect(
      TraceSchemaError.malformedDigest(path: "$.state.digest", text: "xyz").description
        == "$.state.digest: digest 'xyz' is not 16 hexadecimal digits"
    )
    #expect(
      TraceSchemaError.unknownNode(path: "$.x").description.hasPrefix("$.x: not a schema node"))
  }
}
