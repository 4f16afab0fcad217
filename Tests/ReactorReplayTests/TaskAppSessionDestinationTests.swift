import Foundation
import ReactorReplay
import ReactorTracing
import Testing

/// The task app's session recorded to a file and as a flight recorder's window: the file is
/// the in-memory session line for line, and the window replays on its own, starting from
/// every live reactor's state before its first event.
@MainActor
@Suite struct TaskAppSessionDestinationTests {
  private func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("session-\(UUID().uuidString)-\(name)").path
  }

  @Test func aFileRecordingWritesTheLinesTheInMemoryRecordingHolds() async throws {
    let path = temporaryPath("taskapp.session.jsonl")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let session = try await TaskAppSessionTests.recordSession(to: .file(path))
    let written = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let committed = Array(
      try Data(contentsOf: URL(fileURLWithPath: TaskAppSessionTests.tracePath)))
    #expect(written == committed)
    #expect(session.warnings.isEmpty)
    #expect(session.reactors.count == 9)
  }

  @Test func aWindowStartsFromEveryLiveReactorsStateBeforeItAndReplaysStructurally()
    async throws
  {
    let whole = try SessionTrace(contentsOf: TaskAppSessionTests.tracePath)
    let window = try await TaskAppSessionTests.recordSession(
      to: .window(FlightWindow(events: 20, duration: nil)))
    // The last 20 events before the end line, which closes every window.
    let kept = whole.events.dropLast().suffix(20)
    let firstSequence = try #require(kept.first?.sequence)
    #expect(window.header.version == SessionHeader.windowVersion)
    #expect(
      window.header.window
        == TraceHeader.Window(firstSequence: firstSequence, droppedEvents: firstSequence - 1))
    #expect(Array(window.events.suffix(21).dropLast()) == Array(kept))

    // Each reactor alive before the window starts it, at its own introduction's `seq`, with
    // the state the whole session's replay has for it there.
    let replay = try StructuralReplay(whole)
    while let step = try replay.next(), step.sequence < firstSequence - 1 {}
    let bases = window.events.prefix { $0.sequence < firstSequence }
    #expect(bases.map(\.reactor) == replay.liveReactors.keys.sorted())
    for base in bases {
      guard case .introduced(let introduction) = base.kind else {
        Issue.record("the window starts with \(base), not an introduction")
        continue
      }
      #expect(introduction.initialState == replay.currentState(of: introduction.reactor))
      let original = whole.events.first {
        if case .introduced(let introduced) = $0.kind {
          return introduced.reactor == introduction.reactor
        }
        return false
      }
      #expect(base.sequence == original?.sequence)
    }

    // Written and read back, it replays on its own with no divergence.
    let path = temporaryPath("window.session.jsonl")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try window.write(to: path)
    let windowReplay = try StructuralReplay(path: path)
    try windowReplay.checkRemaining()
    #expect(windowReplay.divergences.isEmpty, "\(windowReplay.divergences)")
    guard case .end(let end) = window.events.last?.kind else {
      Issue.record("the window does not end with an end line")
      return
    }
    #expect(end.droppedEvents == firstSequence - 1)
  }
}
