import Foundation
import ReactorTracing
import Testing

/// `reactor-trace shrink-worker` on hostile input (issue 40): whatever line it is given, it
/// answers with one JSON line and goes on; only the end of its input ends it.
@Suite("shrink-worker on hostile input")
struct ShrinkWorkerInputTests {
  /// Runs the built `reactor-trace shrink-worker` with `lines` on its standard input.
  private func runWorker(_ lines: [String]) throws -> CommandResult {
    let scratch = try Scratch()
    let input = try scratch.write(lines.joined(separator: "\n") + "\n", to: "input")
    return try runBinary(["shrink-worker", "--until-state", "value=2"], standardInput: input)
  }

  @Test func everyLineIsAnsweredWithOneJSONLineAndARealScriptStillRuns() throws {
    let script = """
      {"reactor": "ReactorExamples.CounterReactor"}
      {"t": 0, "action": "increase"}
      {"t": 500, "action": "increase"}
      """
    let real = JSONValue.string(script).serializedString
    let hostile = [
      "",
      "not json",
      "42",
      #"{"reactor": "ReactorExamples.CounterReactor"}"#,
      JSONValue.string("{\"reactor\": \"Nobody.Reactor\"}\n{\"t\": 0, \"action\": \"go\"}")
        .serializedString,
      JSONValue.string("\u{1B}]0;title\u{07}\u{0}").serializedString,
      String(repeating: "[", count: 100_000),
      "\"" + String(repeating: "a", count: 1 << 20) + "\"",
      JSONValue.string(
        "{\"reactor\": \"ReactorExamples.CounterReactor\"}\n{\"t\": -1, \"action\": \"increase\"}"
      ).serializedString,
    ]
    let result = try runWorker(hostile + [real])
    #expect(result.status == 0, "\(result.error)")
    let answers = result.output.split(separator: "\n", omittingEmptySubsequences: false)
      .dropLast()
    #expect(answers.count == hostile.count + 1)
    for answer in answers {
      let json = try JSONValue(parsing: String(answer))
      #expect(json["met"] != nil, "\(answer)")
      #expect(!answer.unicodeScalars.contains { $0.value < 0x20 }, "\(answer)")
    }
    // The real script, after all that, reaches value=2 after its second step.
    let last = try JSONValue(parsing: String(try #require(answers.last)))
    #expect(last["met"] == .bool(true))
    #expect(last["run"] == .int(2))
  }
}
