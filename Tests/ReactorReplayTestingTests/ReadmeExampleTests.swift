import Foundation
import ReactorExamples
import ReactorReplayTesting
import Testing

/// The repository's root, found from this file's path.
private let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

@Suite struct ReadmeExample {
  @MainActor @Test func counterStillReducesItsRecordedRun() {
    expectReplay(repositoryRoot + "/Traces/counter.trace.jsonl", reduces: CounterReactor())
  }
}
