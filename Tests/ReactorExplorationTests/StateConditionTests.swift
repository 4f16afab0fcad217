import ReactorExploration
import ReactorTracing
import Testing

@Suite struct StateConditionTests {
  @Test func nullMatchesAnOptionalLeftOutOfItsObject() throws {
    let condition = try StateCondition(parsing: "filter=null")
    #expect(condition.matches(["sections": []]))
    #expect(condition.matches(["sections": [], "filter": .null]))
    #expect(!condition.matches(["sections": [], "filter": "Port"]))
    let nested = try StateCondition(parsing: "sections.0.filter=null")
    #expect(nested.matches(["sections": [["items": []]]]))
    // A path past the end of an array, or through a missing object, is no left-out field.
    #expect(!nested.matches(["sections": []]))
    #expect(!(try StateCondition(parsing: "sections.0=null")).matches(["sections": []]))
    #expect(!(try StateCondition(parsing: "missing.filter=null")).matches(["sections": []]))
  }
}
