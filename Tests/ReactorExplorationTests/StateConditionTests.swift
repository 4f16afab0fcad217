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

  /// What a condition writes reads back as the same terms, also when a field's name holds a
  /// quote or a bracket (issue 40: the shrink fuzz target read `"name=…` as a JSON string
  /// running into the next term).
  @Test(arguments: [
    "\"ReactorExamples\u{FFFD}=\u{FFFD}: 0",
    #""quoted"=1,b=2"#,
    #"a"b=1,c=2"#,
    #"x[=1,y=2"#,
    #"title=a"b,done=true"#,
    #"title="a,b",count=[1,2],x={"k":1}"#,
  ])
  func aConditionReadsBackFromWhatItWrites(text: String) throws {
    let condition = try StateCondition(parsing: text)
    #expect(try StateCondition(parsing: condition.description) == condition)
  }

  @Test func aQuoteInAFieldNameOpensNoString() throws {
    let condition = try StateCondition(parsing: #"a"b=1,c=2"#)
    #expect(condition.terms.count == 2)
    #expect(condition.matches([#"a"b"#: 1, "c": 2]))
  }
}
