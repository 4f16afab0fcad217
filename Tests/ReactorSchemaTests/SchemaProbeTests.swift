import Foundation
import ReactorJSON
import ReactorSchema
import Testing

/// The shapes the probe finds, as canonical JSON (members sorted by key).
@Suite struct SchemaProbeTests {
  private func shape<T>(of type: T.Type) throws -> String {
    try #require(TypeFingerprint(of: type).shape).json.serializedString
  }

  @Test func enumCasesRecordUnlabelledAndLabelledPayloads() throws {
    let expected = """
      {"cases":{"labelled":{"id":"UInt64","note":{"optional":"String"}},\
      "mixed":{"_0":"Float","flag":"Bool"},"nothing":{},\
      "unlabelled":{"_0":"Int","_1":"String"}},"enum":"Payload"}
      """
    #expect(try shape(of: Payload.self) == expected)
  }

  @Test func structFieldsDescribeNestedStructsAndContainers() throws {
    let item = """
      {"fields":{"price":"Double","tags":{"set":"String"},"title":"String"},\
      "struct":"Catalog.Item"}
      """
    let expected = """
      {"fields":{"byID":{"dictionary":\(item),"key":"String"},\
      "featured":{"optional":\(item)},"history":{"array":"UInt16"},\
      "items":{"array":\(item)},"nested":{"array":{"array":"Int8"}},\
      "ranks":{"dictionary":{"array":"Double"},"key":"Int"}},"struct":"Catalog"}
      """
    #expect(try shape(of: Catalog.self) == expected)
  }

  @Test func stringRawValueEnumListsCasesAndRawValues() throws {
    let expected = """
      {"cases":{"home":{},"search":{},"settings":{}},"enum":"Tab","rawValue":"String",\
      "rawValues":{"home":"home","search":"search","settings":"Settings"}}
      """
    #expect(try shape(of: Tab.self) == expected)
  }

  @Test func intRawValueEnumListsCasesAndRawValues() throws {
    let expected = """
      {"cases":{"high":{},"low":{},"medium":{}},"enum":"Urgency","rawValue":"Int",\
      "rawValues":{"high":10,"low":0,"medium":1}}
      """
    #expect(try shape(of: Urgency.self) == expected)
  }

  @Test func rawValueEnumInsideAStructGetsAValue() throws {
    let expected = """
      {"fields":{"content":{"cases":{"home":{},"search":{},"settings":{}},"enum":"Tab",\
      "rawValue":"String","rawValues":{"home":"home","search":"search",\
      "settings":"Settings"}}},"struct":"Carton<Tab>"}
      """
    #expect(try shape(of: Carton<Tab>.self) == expected)
  }

  @Test func indirectEnumRefersToItself() throws {
    let expected = """
      {"cases":{"add":{"_0":{"ref":"Expression"},"_1":{"ref":"Expression"}},\
      "negate":{"_0":{"ref":"Expression"}},"number":{"_0":"Int"}},"enum":"Expression"}
      """
    #expect(try shape(of: Expression.self) == expected)
  }

  @Test func classThatHoldsItselfRefersToItself() throws {
    let expected = """
      {"fields":{"children":{"array":{"ref":"TreeNode"}},\
      "parent":{"optional":{"ref":"TreeNode"}},"value":"Int"},"struct":"TreeNode"}
      """
    #expect(try shape(of: TreeNode.self) == expected)
  }

  @Test func pulseInsideStateIsAStructureOfItsValueAndCounter() throws {
    let expected = """
      {"fields":{"count":"Int","message":{"fields":{"value":{"optional":"String"},\
      "valueUpdatedCount":"UInt"},"struct":"Pulse<Optional<String>>"}},"struct":"Alerts"}
      """
    #expect(try shape(of: Alerts.self) == expected)
  }

  @Test func validatingInitializerIsRetriedUntilItAccepts() throws {
    let expected = #"{"fields":{"even":"Int","name":"String"},"struct":"Validated"}"#
    #expect(try shape(of: Validated.self) == expected)
  }

  @Test func initializerThatFailsMidwayGivesPartialStructure() throws {
    let expected = #"{"fields":{"first":"Int"},"partial":true,"struct":"AlwaysFails"}"#
    #expect(try shape(of: AlwaysFails.self) == expected)
  }

  @Test func valueRejectedWhateverItIsIsOpaque() throws {
    #expect(try shape(of: NeverValid.self) == #"{"opaque":"NeverValid"}"#)
    let expected = """
      {"fields":{"before":"Int","broken":{"opaque":"NeverValid"}},"partial":true,\
      "struct":"HoldsFailures"}
      """
    #expect(try shape(of: HoldsFailures.self) == expected)
  }

  @Test func foundationValuesAreWrappersOfWhatTheyDecode() throws {
    let fields = try #require(TypeFingerprint(of: Wrapped.self).shape?.json["fields"])
    let field = { (name: String) in fields[name]?.serializedString }
    #expect(field("id") == #"{"value":"String","wrapper":"UUID"}"#)
    #expect(field("date") == #"{"value":"Double","wrapper":"Date"}"#)
    #expect(field("data") == #"{"value":{"array":"UInt8"},"wrapper":"Data"}"#)
    #expect(field("range") == #"{"value":{"tuple":["Int","Int"]},"wrapper":"Range<Int>"}"#)
    // URL's form differs between Foundations; it must be probed, whatever it is.
    #expect(fields["url"]?["opaque"] == nil)
    #expect(TypeFingerprint(of: Wrapped.self).shape?.json["partial"] == nil)
  }

  @Test func enumWithCustomCodingKeysRecordsTheKeys() throws {
    let expected = #"{"cases":{"FIRST":{"_0":"Int"},"SECOND":{}},"enum":"KeyedDifferently"}"#
    #expect(try shape(of: KeyedDifferently.self) == expected)
  }

  @Test func enumWithDiscriminatorFieldIsProbedPerCase() throws {
    let expected = """
      {"cases":{"circle":{"kind":"String","radius":"Double"},\
      "square":{"kind":"String","side":"Double"}},"enum":"Figure"}
      """
    #expect(try shape(of: Figure.self) == expected)
  }

  @Test func typesNestedBeyondTheDepthLimitBecomeOpaque() throws {
    var node = try #require(TypeFingerprint(of: cartons(around: Int.self, levels: 40)).shape)
    var depth = 0
    while case .structure(_, let fields, _) = node, let content = fields.first {
      node = content.schema
      depth += 1
    }
    #expect(depth == 32)
    guard case .opaque = node else {
      Issue.record("expected an opaque type at the depth limit, found \(node)")
      return
    }
  }

  @Test func nonCodableTypeHasNoShape() {
    let fingerprint = TypeFingerprint(of: NotCodable.self)
    #expect(fingerprint.name == "NotCodable")
    #expect(!fingerprint.isCodable)
    #expect(fingerprint.shape == nil)
    #expect(fingerprint.digest == JSONValue.null.canonicalHash)
  }

  @Test func decodableOnlyTypeHasAShapeButIsNotCodable() throws {
    let fingerprint = TypeFingerprint(of: DecodableOnly.self)
    #expect(!fingerprint.isCodable)
    #expect(
      try shape(of: DecodableOnly.self) == #"{"fields":{"value":"Int"},"struct":"DecodableOnly"}"#)
  }

  @Test func primitivesAndContainersAtTheTopAreDescribedDirectly() throws {
    #expect(try shape(of: Int.self) == #""Int""#)
    #expect(
      try shape(of: [String: Bool]?.self) == #"{"optional":{"dictionary":"Bool","key":"String"}}"#)
  }

  @Test func reactorSchemaFingerprintsItsThreeTypes() async {
    let schema = await MainActor.run { TraceSchema(of: SchemaCounterReactor.self) }
    #expect(schema.action.name == "Counter.Action")
    #expect(schema.mutation == schema.action)
    #expect(schema.state.name == "Counter.State")
    #expect(schema.state.isCodable)
  }
}
