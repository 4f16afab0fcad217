import ConcurrencyExtras
import Testing

@MainActor
@Suite struct SessionBugTests {
  /// The test generated from the task app's session fails against an app whose edit screen
  /// publishes each saved task's id plus one.
  ///
  /// The rename of task 2 saved at 300 ms never reaches task 2's row: the generated test
  /// fails at 400 ms on that row (#4), naming the field, the edit screen's save and the time,
  /// and at 600 ms on the row the refresh made for task 2 (#8). Any other issue, or none,
  /// fails this test.
  @Test func theGeneratedSessionTestFailsAtTheRowTheWrongIDMissed() async throws {
    let failures = LockIsolated<[String]>([])
    try await withKnownIssue {
      try await WrongIDTaskappSessionTests().taskapp()
    } matching: { issue in
      let text = String(describing: issue)
      let comments = issue.comments.map(\.rawValue)
      let known =
        (text.contains(#"(field(4, "task.title") → ""Record a trace"")"#)
          && comments == ["TaskCellReactor #4, after edit #2's save (action 5), at 400 ms"])
        || (text.contains(#"(field(8, "task.title") → ""Record a trace"")"#)
          && comments == ["TaskCellReactor #8, after list #1's refresh (action 3), at 600 ms"])
      if known { failures.withValue { $0.append(comments[0]) } }
      return known
    }
    #expect(failures.value.count == 2)
  }
}
