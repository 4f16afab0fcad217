import ConcurrencyExtras
import Testing

@MainActor
@Suite struct BrokenReduceTests {
  /// The test generated from the Counter's trace fails against a broken copy.
  ///
  /// The copy's `decreaseValue` subtracts two: the test's only failure names the field, the value, and the action behind it.
  /// An issue that does not match, or no issue at all, fails this test.
  @Test func theGeneratedTestFailsNamingTheActionAndTheFieldWhenReduceChanges() async throws {
    try await withKnownIssue {
      try await BrokenCounterTraceTests().counter()
    } matching: { issue in
      // `(field("value") → "0") == "1"`: the field, what the broken reduce gave and what the
      // trace recorded; the comment names the action.
      String(describing: issue).contains(#"(field("value") → "0") == "1""#)
        && issue.comments.map(\.rawValue) == ["after decrease (action 4), at 1500 ms"]
    }
  }

  /// The test generated from a run whose events reach the fakes before any action fails
  /// when the list does not receive them (built on another service than the one they
  /// reach), first at the state after the first event; unchanged, it passes
  /// (`TasklistEventsFirstTraceTests`), its pipeline started before the first event.
  @Test func theGeneratedTestFailsWhenEventsBeforeTheFirstActionDoNotReachTheReactor()
    async throws
  {
    let issues = LockIsolated<[(description: String, comments: [String])]>([])
    try await withKnownIssue {
      try await MiswiredTasklistTraceTests().tasklistEventsFirst()
    } matching: { issue in
      issues.withValue { $0.append((String(describing: issue), issue.comments.map(\.rawValue))) }
      return true
    }
    let first = try #require(issues.value.first)
    #expect(first.description.contains(#"(field("tasks.0.id") → nil) == "4""#))
    #expect(first.comments == ["after the scripted event at 0 ms, at 50 ms"])
  }
}
