import Foundation
import ReactorExamples
import ReactorTracing
import Testing

@testable import ReactorTestGeneration

/// Actions turned back into Swift with the schema the trace recorded.
@Suite struct PayloadFromSchemaTests {
  private let schema = TypeFingerprint(of: ItemListReactor.Action.self).shape

  private func expression(_ json: String) throws -> String? {
    SwiftLiteral.enumCase(try JSONValue(parsing: json), schema: schema)
  }

  @Test func anOptionalPayloadLeftOutIsNil() throws {
    #expect(try expression(#"{"setFilter":{}}"#) == ".setFilter(nil)")
    #expect(try expression(#"{"setFilter":{"_0":null}}"#) == ".setFilter(nil)")
    #expect(try expression(#"{"setFilter":{"_0":"Port"}}"#) == #".setFilter("Port")"#)
  }

  @Test func aCaseWithoutPayloadStaysBare() throws {
    #expect(try expression(#"{"load":{}}"#) == ".load")
  }

  @Test func aPayloadThatIsNoPrimitiveIsDecoded() throws {
    // An IndexPath is no literal; nor is a required payload that is missing.
    #expect(try expression(#"{"toggle":{"_0":{"indexes":[0,0]}}}"#) == nil)
    #expect(try expression(#"{"toggle":{}}"#) == nil)
    #expect(try expression(#"{"load":{"_0":1}}"#) == nil)
  }

  @Test func withoutASchemaAnEmptyPayloadIsDecoded() throws {
    let value = try JSONValue(parsing: #"{"setFilter":{}}"#)
    #expect(SwiftLiteral.enumCase(value, schema: nil) == nil)
    let query = try JSONValue(parsing: #"{"updateQuery":{"_0":"swift"}}"#)
    #expect(SwiftLiteral.enumCase(query, schema: nil) == #".updateQuery("swift")"#)
  }
}
