import Foundation
import ReactorShrinking
import ReactorTracing
import Testing

/// The condition `shrink --until-invariant --test` writes from the state that broke an
/// invariant holds at the moment it broke, whatever the state's keys hold (issue 40, found
/// writing the shrink fuzz property): a field whose key a condition cannot write (`=`, `,`,
/// `:`, a dot) is left out rather than written as another field.
@Suite("A broken invariant spelled as a state condition")
struct SpelledInvariantTests {
  /// A trace of one reactor whose state has the given keys and `x`.
  ///
  /// `x` breaks the invariant when it becomes 1. The trace's hashes are not checked.
  private static func session(keys: [String]) throws -> SessionTrace {
    let state = keys.enumerated().map { "\"\($1)\":\($0 + 2)" }.joined(separator: ",")
    let text = """
      {"format":"reactor-trace","version":"1.1","reactor":"Example.Reactor","recorder":"test",\
      "clock":{"name":"TestClock<Duration>"},"schema":{"action":{"codable":true,\
      "digest":"fd0de614b82adc8d","shape":{"cases":{"go":{}},"enum":"A"},"type":"A"},\
      "mutation":{"codable":true,"digest":"998ada2ca6dc99bc","shape":{"cases":{"set":{}},\
      "enum":"M"},"type":"M"},"state":{"codable":true,"digest":"281b181b5f620f6f",\
      "shape":{"fields":{"x":"Int"},"struct":"S"},"type":"S"}},\
      "initialState":{\(state),"x":0},"initialStateHash":"0000000000000000","metadata":{}}
      {"seq":1,"t":0,"kind":"action","id":1,"label":"go","value":{"go":{}},"source":"sent"}
      {"seq":2,"t":0,"kind":"mutation","id":1,"label":"set","value":{"set":{}},\
      "cause":{"action":1},"diff":[{"p":["x"],"v":1}],"hash":"0000000000000000"}

      """
    let reader = try SessionReader(bytes: Array(text.utf8), name: "t", verifyingStates: false)
    var events: [SessionEvent] = []
    while let event = try reader.next() { events.append(event) }
    return SessionTrace(header: reader.header, events: events)
  }

  @Test(arguments: [["k=v"], ["a,b"], ["c:d"], ["e.f"], ["k=v", "a,b", "c:d", "e.f", "plain"]])
  func theSpelledConditionHoldsWhenTheInvariantBroke(keys: [String]) throws {
    let session = try Self.session(keys: keys)
    let condition = ShrinkCondition(brokenInvariant: true)
    let check: (String, JSONValue) -> String? = { _, state in
      state["x"] == .int(1) ? "x is never 1" : nil
    }
    let match = try #require(condition.firstMatch(in: session, brokenInvariant: check))
    let spelled = try #require(
      condition.spellingInvariantAsState(in: session, brokenInvariant: check))
    let held = try #require(spelled.firstMatch(in: session), "\(spelled) never holds")
    #expect(held.sequence == match.sequence)
    // What the generated test and the command line show reads back as the same condition.
    for term in spelled.states {
      #expect(try ShrinkCondition.StateTerm(parsing: term.description) == term)
    }
    #expect(spelled.states.contains { $0.description.hasSuffix("x=1") })
  }
}

/// Found by the shrink fuzz (issue 40): in a session without `app` metadata, the condition
/// spelled from a reactor other than the first names that reactor, so it holds when the
/// invariant broke.
@Suite("A broken invariant of a session's second reactor spelled as a state condition")
struct SpelledInvariantOfAnotherReactorTests {
  @Test(arguments: [true, false])
  func theSpelledConditionNamesTheReactorThatBrokeIt(withAppMetadata: Bool) throws {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var text = try String(
      contentsOf: root.appendingPathComponent("Traces/taskapp.session.jsonl"), encoding: .utf8)
    if !withAppMetadata {
      text = text.replacingOccurrences(of: #""metadata":{"app":"#, with: #""metadata":{"name":"#)
    }
    let session = try SessionTrace(bytes: Array(text.utf8))
    #expect((session.header.metadata["app"] != nil) == withAppMetadata)
    let condition = ShrinkCondition(brokenInvariant: true)
    let check: (String, JSONValue) -> String? = { type, _ in
      type.hasSuffix("TaskEditReactor") ? "the edit screen is never shown" : nil
    }
    let match = try #require(condition.firstMatch(in: session, brokenInvariant: check))
    let spelled = try #require(
      condition.spellingInvariantAsState(in: session, brokenInvariant: check))
    #expect(spelled.states.allSatisfy { $0.address != nil }, "\(spelled)")
    let held = try #require(spelled.firstMatch(in: session), "\(spelled) never holds")
    #expect(held.sequence <= match.sequence)
  }
}
