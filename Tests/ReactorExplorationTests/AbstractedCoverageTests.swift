import Clocks
import Foundation
import ReactorExamples
import ReactorExploration
import ReactorStateMachines
import ReactorTestSupport
import ReactorTracing
import Testing

/// Coverage of many reactors of one type, each starting from its own state, seen through an
/// abstraction: the task app's rows against the exploration of one row.
@MainActor
@Suite struct AbstractedCoverageTests {
  private static let session = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Traces/taskapp.session.jsonl").path

  /// The exploration of a row of task 1 toggled, and the lanes of the session's 7 rows.
  private func rowsAndTheirExploration() async throws
    -> (Exploration, [(reactor: Int?, open: () throws -> TraceReader)])
  {
    let explorer = ReactorExplorer<TaskCellReactor>(
      reactor: "ReactorExamples.TaskCellReactor", alphabet: [.toggle]
    ) { clock in
      TaskCellReactor(task: TaskService.sampleTasks[0], service: TaskAppService(clock: clock))
    }
    var result: Exploration?
    try await withExclusiveMainSerialExecutor { result = try await explorer.explore() }
    let session = try SessionTrace(contentsOf: Self.session)
    let lanes = session.reactors.filter { $0.type == "ReactorExamples.TaskCellReactor" }
      .compactMap { introduction in
        session.lane(of: introduction.reactor).map { lane in
          (
            reactor: Int?.some(introduction.reactor),
            open: { () throws -> TraceReader in
              try TraceReader(bytes: lane.serialized)
            }
          )
        }
      }
    return (try #require(result), lanes)
  }

  @Test func rowsOfOtherTasksMeetTheExplorationOnlyThroughTheAbstraction() async throws {
    let (exploration, lanes) = try await rowsAndTheirExploration()
    #expect(lanes.count == 7)
    #expect(exploration.states.count == 2 && exploration.transitions.count == 2)

    // Whole states: only the row of task 1 passes through the explored states, and its
    // toggle (its own effect's stream mutation, counted as the toggle) is the one exercised
    // of the two explored transitions.
    let whole = try AbstractedCoverage(of: exploration, traces: lanes) { $0.serializedString }
    #expect(whole.states.count == 2 && whole.transitions.count == 2)
    #expect(whole.exercisedStates.count == 2)
    #expect(whole.exercisedTransitions.count == 1)
    #expect(whole.exercisedTransitions.first?.action == "toggle")
    #expect(whole.exercisedTransitions.first?.mutation == "setTask")
    // The rename of task 2, from the edit screen, is no transition of the exploration.
    #expect(whole.observedOutside.map(\.action) == ["stream taskService"])

    // One abstract state: every row's toggle is the type's one transition.
    let merged = try AbstractedCoverage(of: exploration, traces: lanes) { _ in "(any state)" }
    #expect(merged.states == ["(any state)"])
    #expect(
      merged.transitions
        == [
          AbstractedCoverage.Transition(
            source: "(any state)", target: "(any state)", mutation: "setTask", action: "toggle")
        ])
    #expect(merged.transitionShare == 1 && merged.stateShare == 1)
    #expect(merged.missedTransitions.isEmpty)
    #expect(merged.traceCount == 7)
  }

  @Test func aLabelIsReducedToItsCaseName() {
    #expect(StateTransition.caseName(of: #"setTitle("Buy milk")"#) == "setTitle")
    #expect(StateTransition.caseName(of: "save") == "save")
    #expect(StateTransition.caseName(of: "stream taskService") == "stream taskService")
    #expect(StateTransition.caseName(of: "(1, 2)") == "(1, 2)")
    // A nested enum's case keeps its type, as fleet summaries have always named it.
    #expect(StateTransition.caseName(of: "Filter.done(true)") == "Filter.done")
  }
}
