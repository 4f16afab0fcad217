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
}
