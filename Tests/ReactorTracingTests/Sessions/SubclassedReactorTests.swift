import ReactorCore
import ReactorTestSupport
import ReactorTracing
import Testing

/// A reactor meant to be subclassed: a screen whose variants share its pipeline.
@MainActor
class CountingScreenReactor: Reactor {
  enum Action: Codable, Sendable { case increase }
  struct State: Codable, Sendable, Equatable { var count = 0 }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    state.count += 1
    return state
  }
}

/// A variant of the screen, known to the app only through its base class.
@MainActor
final class ChildCountingScreenReactor: CountingScreenReactor {}

extension TracingTests {
  /// A subclassed reactor is recorded under the type it is, not the type it is used as.
  @MainActor
  @Suite struct SubclassedReactor {
    @Test func aSessionIntroducesASubclassedReactorByItsDynamicType() async throws {
      try await withExclusiveMainSerialExecutor {
        let recorder = try SessionRecorder.recordingEveryReactor(including: {
          $0 is CountingScreenReactor
        })
        let screen: CountingScreenReactor = ChildCountingScreenReactor()
        screen.send(.increase)
        let base = CountingScreenReactor()
        recorder.record(base, name: "base")
        recorder.stop()
        #expect(
          recorder.session.reactors.map(\.type) == [
            "ReactorTracingTests.ChildCountingScreenReactor",
            "ReactorTracingTests.CountingScreenReactor",
          ])
      }
    }

    @Test func aSessionRecordedByHandNamesTheSubclassThroughItsBaseType() throws {
      let recorder = try SessionRecorder()
      let screen: CountingScreenReactor = ChildCountingScreenReactor()
      recorder.record(screen, name: "screen")
      screen.send(.increase)
      recorder.stop()
      #expect(
        recorder.session.reactors.map(\.type) == [
          "ReactorTracingTests.ChildCountingScreenReactor"
        ])
    }

    @Test func aTraceOfOneReactorNamesTheSubclassInItsHeader() throws {
      let screen: CountingScreenReactor = ChildCountingScreenReactor()
      let recorder = try InMemoryTraceRecorder(recording: screen)
      screen.send(.increase)
      #expect(recorder.trace.header.reactor == "ReactorTracingTests.ChildCountingScreenReactor")
    }
  }
}
