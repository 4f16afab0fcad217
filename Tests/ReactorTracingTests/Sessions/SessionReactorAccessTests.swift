import Clocks
import ReactorCore
import ReactorExamples
import ReactorTestSupport
import ReactorTracing
import Testing

extension TracingTests {
  /// Reaching a recorded reactor by its session id, as a test generated from a session does:
  /// sending it a typed action, reading its state as its lane records it.
  @MainActor
  @Suite struct SessionReactorAccess {
    @Test func aReactorIsSentTypedActionsAndReadByItsSessionID() async throws {
      try await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let recorder = try SessionRecorder.recordingEveryReactor(
          options: TraceOptions(clock: clock),
          including: { $0 is TaskAppListReactor || $0 is TaskCellReactor || $0 is TaskEditReactor })
        defer { recorder.stop() }
        let app = TaskApp(clock: clock)
        recorder.record(app.list, name: "list")
        recorder.record(app.edit, name: "edit")
        app.bindViews()
        try recorder.send(TaskAppListReactor.Action.refresh, to: 1)
        await clock.advance(by: .milliseconds(100))
        // The list's state is not Encodable: it reads as recorded, its rows as references.
        let list = try #require(recorder.recordedState(of: 1))
        #expect(
          list
            == (try JSONValue(
              parsing: #"{"cells":[{"reactor":3},{"reactor":4},{"reactor":5}],"isLoading":false}"#
            )))
        try recorder.send(TaskEditReactor.Action.setTitle("Buy milk"), to: 2)
        #expect(
          recorder.recordedState(of: 2)
            == (try JSONValue(parsing: #"{"isSaving":false,"title":"Buy milk"}"#)))
        #expect(
          throws: SessionSendError.wrongType(
            2, expected: "ReactorExamples.TaskEditReactor.Action",
            found: "ReactorExamples.TaskCellReactor.Action")
        ) {
          try recorder.send(TaskCellReactor.Action.toggle, to: 2)
        }
        #expect(throws: SessionSendError.notAlive(10)) {
          try recorder.send(TaskCellReactor.Action.toggle, to: 10)
        }
        #expect(recorder.recordedState(of: 10) == nil)
        // A row the list dropped is gone.
        try recorder.send(TaskAppListReactor.Action.delete(id: 3), to: 1)
        await clock.advance(by: .milliseconds(100))
        #expect(recorder.recordedState(of: 5) == nil)
        withExtendedLifetime(app) {}
      }
    }
  }
}
