import Clocks
import Foundation
import ReactorCore
import ReactorTestSupport
import ReactorTracing
import Synchronization
import Testing

/// A counter with Codable types whose `increase` adds `step`, to make replays diverge.
final class AssertionCounterReactor: Reactor {
  enum Action: Codable, Equatable, Sendable {
    case increase
  }

  enum Mutation: Codable, Equatable, Sendable {
    case increaseValue
  }

  struct State: Codable, Equatable, Sendable {
    var value = 0
  }

  let initialState = State()
  let runtime = Runtime()
  /// What `increaseValue` adds: 1, or something else to make replays diverge.
  let step: Int

  init(step: Int = 1) {
    self.step = step
  }

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .increase: .just(.increaseValue)
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .increaseValue: state.value += step
    }
    return state
  }
}

/// Records `count` increases of an ``AssertionCounterReactor`` adding `step`, stamped by a
/// test clock that never advances, so every time is 0.
@MainActor
func recordAssertionCounterTrace(step: Int = 1, count: Int = 3) throws -> Trace {
  let reactor = AssertionCounterReactor(step: step)
  let recorder = try InMemoryTraceRecorder(
    recording: reactor, options: TraceOptions(clock: TestClock()))
  for _ in 0..<count { reactor.send(.increase) }
  recorder.stop()
  return recorder.trace
}

/// A fresh directory under the temporary directory, removed by ``remove()``.
struct AssertionTemporaryDirectory {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("replay-testing-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// The path of `name` in the directory.
  func file(_ name: String) -> String { path + "/" + name }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The comments of the issues a `withKnownIssue` matcher saw.
final class CapturedIssues: Sendable {
  private let comments = Mutex<[String]>([])

  /// Keeps the issue's comments, joined, and matches it.
  @Sendable func capture(_ issue: Issue) -> Bool {
    let text = issue.comments.map(\.rawValue).joined(separator: "\n")
    comments.withLock { $0.append(text) }
    return true
  }

  /// Every comment seen so far.
  var all: [String] { comments.withLock { $0 } }
}
