import ReactorTracing
import Testing

@testable import ReactorLiveServer

@Suite struct ShownLabelsTests {
  private func shown(_ lines: [String]) -> JSONValue {
    ShownLabels.of(Array(lines.map { $0 + "\n" }.joined().utf8))
  }

  @Test func actionsAndMutationsWithModulePrefixesGetTheirShortLabelsBySeq() {
    let result = shown([
      #"{"version":"1.2","reactor":"MyApp.ListReactor","initialState":{}}"#,
      #"{"seq":1,"t":0,"kind":"action","id":1,"label":"select(MyApp.Item(id: 2))","source":"user"}"#,
      #"{"seq":2,"t":5,"kind":"mutation","id":1,"label":"setItems([MyApp.Item(id: 2, title: \"A.B\")])","diff":[]}"#,
      #"{"seq":3,"t":6,"kind":"mutation","id":2,"label":"setLoading(false)","diff":[]}"#,
    ])
    #expect(
      result
        == .object(
          JSONObject([
            ("1", .string("select(Item(id: 2))")),
            ("2", .string(#"setItems([Item(id: 2, title: "A.B")])"#)),
          ])))
  }

  @Test func linesOfOtherKindsAndLinesThatAreNotJSONArePassedOver() {
    let result = shown([
      #"{"seq":4,"t":7,"kind":"effectStart","effect":1,"action":1,"name":"\"label\":MyApp.X"}"#,
      #"{"seq":5,"t":8,"kind":"action","id":2,"label":"#,
      "not json, \"label\": MyApp.X",
      "",
    ])
    #expect(result == .object(JSONObject([])))
  }
}
