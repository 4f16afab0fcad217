import Clocks
import Foundation
import ReactorCore
import ReactorExamples
import ReactorReplay
import ReactorScript
import ReactorTestSupport
import ReactorTracing
import Testing

/// A session of the task app (a list with one reactor per row, an edit screen, one service):
/// recorded, committed as `Traces/taskapp.session.jsonl`, replayed structurally and through
/// `reduce` per reactor, every action and mutation resolving to a user action or a stream.
@MainActor
@Suite struct TaskAppSessionTests {
  static let tracePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Traces/taskapp.session.jsonl").path

  static let scriptPath = URL(fileURLWithPath: tracePath).deletingLastPathComponent()
    .appendingPathComponent("taskapp.script.jsonl").path

  /// The app's reactors: other suites' reactors may start while a recording waits.
  static func isTaskAppReactor(_ object: AnyObject) -> Bool {
    object is TaskAppListReactor || object is TaskCellReactor || object is TaskEditReactor
  }

  /// The user's taps, from `Traces/taskapp.script.jsonl` on a test clock: load the list,
  /// create a task on the edit screen, check a row, rename a task on the edit screen, delete
  /// a task from the list, load again.
  ///
  /// Recorded in memory, or where `destination` says: a file's session is the file read back
  /// after the recorder closed it.
  static func recordSession(
    editIDOffset: Int = 0, to destination: SessionDestination = .memory
  ) async throws -> SessionTrace {
    let script = try ReactorScript(path: scriptPath)
    let session = Box<SessionTrace?>(nil)
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      session.value = try await SessionScriptRunner.record(
        script, clock: clock, to: destination, including: isTaskAppReactor
      ) { recorder in
        let app = TaskApp(clock: clock, editIDOffset: editIDOffset)
        for (name, reactor) in app.namedReactors {
          if let list = reactor as? TaskAppListReactor { recorder.record(list, name: name) }
          if let edit = reactor as? TaskEditReactor { recorder.record(edit, name: name) }
        }
        app.bindViews()
        return app
      }
    }
    return try #require(session.value)
  }

  @Test func theCommittedSessionIsWhatTheAppRecordsToday() async throws {
    let recorded = try await Self.recordSession().serialized
    if ProcessInfo.processInfo.environment["REACTOR_TRACE_RECORD"] == "1" {
      try SessionTrace(bytes: recorded).write(to: Self.tracePath)
    }
    let committed = Array(try Data(contentsOf: URL(fileURLWithPath: Self.tracePath)))
    #expect(
      committed == recorded,
      "Traces/taskapp.session.jsonl differs; re-record with REACTOR_TRACE_RECORD=1 on purpose")
  }

  @Test func theSessionHoldsManyReactorsCreatedAndReleasedAndReplaysStructurally() throws {
    let replay = try StructuralReplay(path: Self.tracePath)
    var steps: [ReplayStep] = []
    while let step = try replay.next() { steps.append(step) }
    #expect(replay.divergences.isEmpty, "\(replay.divergences)")
    #expect(replay.warnings.isEmpty)
    let session = try SessionTrace(contentsOf: Self.tracePath)
    #expect(session.reactors.count >= 8)
    #expect(session.reactors.prefix(2).map(\.name) == ["list", "edit"])
    let cells = session.reactors.filter { $0.type == "ReactorExamples.TaskCellReactor" }
    #expect(cells.allSatisfy { $0.parent == 1 })
    let released = steps.filter { $0.kind == "release" }.compactMap(\.reactor)
    #expect(released.count >= 4)
    #expect(Set(released).isSubset(of: Set(cells.map(\.reactor))))
    // Every action and mutation resolves to a user action or a named external stream.
    #expect(replay.causality.isComplete)
    #expect(replay.causality.resolvedActions >= 8)
    #expect(replay.causality.resolvedMutations >= 20)
    // The edit screen's save reaches the list through the service, with its effect.
    let created = steps.first { $0.reactor == 1 && $0.label.hasPrefix("insert") }
    #expect(
      created?.cause?.hasPrefix(
        "stream taskService from reactor 2 'edit', action 2 (save), effect 1") == true)
  }

  @Test func everyReactorWhoseStateDecodesReplaysThroughReduce() async throws {
    let session = try SessionTrace(contentsOf: Self.tracePath)
    let service = TaskAppService(clock: ContinuousClock())
    let edit = try ReduceReplay.run(
      session, reactor: 2, through: TaskEditReactor(service: service))
    #expect(edit.isMatch, "\(edit.failureMessage ?? "")")
    #expect(edit.stepsChecked >= 8)
    let cells = try ReduceReplay.runAll(session) { introduction in
      TaskCellReactor(task: TaskItem(id: 0, title: ""), service: service)
    }
    #expect(cells.count >= 6)
    for (reactor, result) in cells {
      #expect(result.isMatch, "reactor \(reactor): \(result.failureMessage ?? "")")
    }
    #expect(
      throws: ReplayError.noSuchReactor("reactor 99", reactors: session.reactors.map(\.reactor))
    ) {
      try ReduceReplay.run(session, reactor: 99, through: TaskEditReactor(service: service))
    }
  }
}

extension TaskAppSessionTests {
  /// Replays the committed session through the app `TaskApp(clock:editIDOffset:)` builds.
  static func mutateReplay(editIDOffset: Int = 0) async throws -> SessionMutateReplay.Result {
    let recorded = try SessionTrace(contentsOf: tracePath)
    let result = Box<SessionMutateReplay.Result?>(nil)
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      result.value = try await SessionMutateReplay.run(
        recorded, clock: clock, advance: { await clock.advance(by: $0) },
        including: isTaskAppReactor
      ) { recorder in
        let app = TaskApp(clock: clock, editIDOffset: editIDOffset)
        recorder.record(app.list, name: "list")
        recorder.record(app.edit, name: "edit")
        app.bindViews()
        return app
      }
    }
    return try #require(result.value)
  }

  @Test func theWholeSessionReplaysThroughMutateWithTheSameCauses() async throws {
    let result = try await Self.mutateReplay()
    #expect(result.isMatch, "\(result.divergence.map(String.init(describing:)) ?? "")")
    #expect(result.userActions == 9)
    let recorded = try SessionTrace(contentsOf: Self.tracePath)
    #expect(result.matchedEvents == recorded.events.count)
    #expect(result.replayed.serialized == recorded.serialized)
  }

  @Test func anEditScreenThatPublishesTheWrongIDIsCaughtAtTheRowItReachesWithItsOrigin()
    async throws
  {
    let result = try await Self.mutateReplay(editIDOffset: 1)
    let divergence = try #require(result.divergence)
    // The rename of task 2 reaches task 3's row (reactor 5) instead of task 2's (reactor 4),
    // and the replayed event names the edit screen's save as its origin.
    #expect(divergence.sequence == 35)
    #expect(divergence.reactor == 4)
    #expect(divergence.recorded?.hasPrefix("[r4] mutation setTask(") == true)
    #expect(
      divergence.replayed?.hasPrefix(
        #"[r5] mutation setTask(ReactorExamples.TaskItem(id: 3, title: "Record a session""#)
        == true)
    #expect(
      divergence.replayed?.contains("← stream taskService from reactor 2, action 5, effect 2")
        == true)
    #expect(result.matchedEvents == 34)
  }
}

/// A mutable box for a value set inside a closure.
final class Box<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}
