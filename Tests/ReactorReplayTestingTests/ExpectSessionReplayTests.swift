import Foundation
import ReactorExamples
import ReactorReplay
import Testing

@testable import ReactorReplayTesting

/// `expectReplay(_:reactorID:reduces:)`: one reactor of a session through today's `reduce`.
@MainActor
@Suite struct ExpectSessionReplayTests {
  private let session = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Traces/taskapp.session.jsonl").path

  @Test func theEditScreenAndARowOfTheTaskAppSessionReplayThroughReduce() {
    let service = TaskAppService(clock: ContinuousClock())
    let edit = expectReplay(session, reactorID: 2, reduces: TaskEditReactor(service: service))
    #expect(edit?.isMatch == true)
    let row = expectReplay(
      session, reactorID: 3,
      reduces: TaskCellReactor(task: TaskItem(id: 0, title: ""), service: service))
    #expect(row?.stepsChecked == 1)
  }

  @Test func aReactorTheSessionDoesNotHaveIsAnIssueNamingItsReactors() {
    withKnownIssue {
      expectReplay(
        session, reactorID: 99,
        reduces: TaskEditReactor(service: TaskAppService(clock: ContinuousClock())))
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.hasSuffix(
          "reactor 99: replay failed: the session has no reactor 99; its reactors: "
            + "1, 2, 3, 4, 5, 6, 7, 8, 9")
      }
    }
  }
}
