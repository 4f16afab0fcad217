import Foundation
import ReactorCore
import ReactorTracing
import Testing

/// A row whose state encodes as part of its screen's, as a Codable cell reactor does: its
/// encoding reads its main-actor state.
@MainActor
final class EncodedRowReactor: Reactor, Encodable {
  enum Action: Sendable { case rename(String) }
  struct State: Codable, Sendable { var title = "row" }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    if case .rename(let title) = mutation { state.title = title }
    return state
  }

  nonisolated func encode(to encoder: any Encoder) throws {
    nonisolated(unsafe) let encoder = encoder
    try MainActor.assumeIsolated { try currentState.encode(to: encoder) }
  }
}

/// A screen whose state holds its rows' reactors.
@MainActor
final class RowHoldingScreenReactor: Reactor {
  enum Action: Codable, Sendable { case addRow }
  struct State: Encodable, Sendable { var rows: [EncodedRowReactor] = [] }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    state.rows.append(EncodedRowReactor())
    return state
  }
}

extension TracingTests {
  /// The single-reactor recorders that encode on a writer thread and a state that holds
  /// reactors.
  @MainActor
  @Suite struct ObjectHoldingState {
    @Test func theFileRecorderRefusesAStateThatHoldsReactorsInOneLineAndWritesNoFile() throws {
      let directory = try TemporaryDirectory()
      let path = directory.file("screen.trace.jsonl")
      let screen = RowHoldingScreenReactor()
      #expect(
        throws: TraceRecordingError.holdsObjects(
          reactor: "ReactorTracingTests.RowHoldingScreenReactor", types: ["State"])
      ) {
        let recorder = try FileTraceRecorder(recording: screen, to: path)
        // Before the check, the writer thread encoded this state and trapped.
        screen.send(.addRow)
        Task { try await recorder.stop() }
      }
      #expect(!FileManager.default.fileExists(atPath: path))
      #expect(screen.runtime.monitor == nil)
      let message = TraceRecordingError.holdsObjects(
        reactor: "ReactorTracingTests.RowHoldingScreenReactor", types: ["State"]
      ).description
      #expect(!message.contains("\n"))
      #expect(message.contains("SessionRecorder"))
    }

    @Test func aSessionRecordsTheSameStateOnTheMainActor() async throws {
      let recorder = try SessionRecorder()
      let screen = RowHoldingScreenReactor()
      recorder.record(screen, name: "screen")
      screen.send(.addRow)
      recorder.stop()
      let states = recorder.session.events.compactMap { event -> TraceEvent.Mutation? in
        if case .reactor(_, .mutation(let mutation)) = event.kind { return mutation }
        return nil
      }
      #expect(states.count == 1)
    }
  }
}
