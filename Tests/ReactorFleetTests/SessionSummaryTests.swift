import Foundation
import ReactorDiagrams
import ReactorFleet
import ReactorTracing
import Testing

@Suite("Session summaries")
struct SessionSummaryTests {
  private let session = tracesDirectory + "/taskapp.session.jsonl"

  /// How many mutations the session's reactors of each type made.
  private func mutationsByType() throws -> [String: Int] {
    let trace = try SessionTrace(contentsOf: session)
    var types: [Int: String] = [:]
    for reactor in trace.reactors { types[reactor.reactor] = reactor.type }
    var counts: [String: Int] = [:]
    for event in trace.events {
      if case .reactor(let reactor, .mutation) = event.kind {
        counts[types[reactor]!, default: 0] += 1
      }
    }
    return counts
  }

  @Test func aSessionGivesOneLinePerReactorTypeAndTransitionEveryMutationCountedOnce() throws {
    let lines = try TraceSummarizer(abstraction: .wholeState).summarize(
      SessionReader(path: session))
    var counts: [String: Int] = [:]
    for line in lines { counts[line.key.reactor, default: 0] += line.count }
    #expect(counts == (try mutationsByType()))
    #expect(Set(lines.map(\.key)).count == lines.count)
    for line in lines {
      #expect(line.traces == 1)
      #expect(line.outcomes.total == line.count)
    }
  }

  @Test func everyReactorOfATypeAddsToTheLinesItsLaneWouldGiveAlone() throws {
    let trace = try SessionTrace(contentsOf: session)
    let summarizer = TraceSummarizer(abstractions: [
      "ReactorExamples.TaskAppListReactor": .wholeState,
      "ReactorExamples.TaskEditReactor": .wholeState,
      "ReactorExamples.TaskCellReactor": StateAbstraction(keys: ["task.isDone"]),
    ])
    let lines = try summarizer.summarize(SessionReader(path: session))
    var lanes = SummarySet()
    for reactor in trace.reactors {
      let lane = try #require(trace.lane(of: reactor.reactor))
      for summary in try summarizer.summarize(SessionReader(bytes: lane.serialized, name: "lane")) {
        lanes.add(summary)
      }
    }
    func counted(_ summaries: [TransitionSummary]) -> [[String]: [Int]] {
      Dictionary(
        uniqueKeysWithValues: summaries.map {
          (
            [$0.key.reactor, $0.key.from, $0.key.action, $0.key.mutation, $0.key.to],
            [
              $0.count, $0.outcomes.sync, $0.outcomes.finished, $0.outcomes.cancelled,
              $0.outcomes.running,
            ]
          )
        })
    }
    var expected = counted(lanes.summaries)
    // Cell 3's toggle published the element its own stream turned into setTask: the session
    // credits that mutation to the toggle (its `from` names the cell), which the cell's lane
    // read alone, as reactor 1, cannot tell.
    let published = [
      "ReactorExamples.TaskCellReactor", "task.isDone=false", "stream taskService", "setTask",
      "task.isDone=true",
    ]
    let removed = expected.removeValue(forKey: published)
    let stream = try #require(removed)
    var credited = published
    credited[2] = "toggle"
    expected[credited] = [stream[0], stream[1] - 1, stream[2] + 1, stream[3], stream[4]]
    #expect(counted(lines) == expected)
    #expect(lines.allSatisfy { $0.traces == 1 })
  }

  @Test func aRunInfersEachTypesAbstractionAndSkipsFilesThatAreNoTraces() throws {
    let paths = try FleetFiles.expand([tracesDirectory + "/*.jsonl"], extensions: [])
    let result = try Summarization(choice: .inferred(overrides: [:])).summarize(
      paths, merging: false)
    #expect(result.traceCount == 6)
    #expect(result.skipped.count == paths.count - 6)
    #expect(result.skipped.allSatisfy { $0.hasPrefix("skipped: '") })
    #expect(result.skipped.contains { $0.contains("taskapp.script.jsonl") })
    let types = Set(try SessionTrace(contentsOf: session).reactors.map(\.type))
    for type in types {
      #expect(result.abstractions.abstractions[type] != nil, "\(type)")
      let abstraction = result.abstractions.abstractions[type]!.summaryText
      #expect(
        result.summaries.filter { $0.key.reactor == type }.allSatisfy {
          $0.key.abstraction == abstraction
        })
    }
    // The session's types were inferred from their lanes, as `render transitions` does.
    let machines = try SessionTransitions(session: SessionTrace(contentsOf: session))
    for machine in machines.machines {
      #expect(result.abstractions.abstractions[machine.type] == machine.graph.abstraction)
    }
  }

  @Test func anOverrideAppliesToTheTypesThatHaveTheField() throws {
    let result = try Summarization(choice: .inferred(overrides: ["title": .omitted])).summarize(
      [session], merging: false)
    let edit = try #require(result.abstractions.abstractions["ReactorExamples.TaskEditReactor"])
    #expect(edit.rules.contains { $0.name == "title" && $0.abstraction == .omitted })
    #expect(throws: FleetError.self) {
      try Summarization(choice: .inferred(overrides: ["nowhere": .omitted])).summarize(
        [session], merging: false)
    }
  }

  @Test func productionCoverageOfASessionAgainstItselfMissesNothing() throws {
    let result = try Summarization(choice: .inferred(overrides: [:])).summarize(
      [session], merging: true)
    for type in Set(result.summaries.map(\.key.reactor)) {
      let coverage = try ProductionCoverage(
        production: result.summaries, reactor: type, goldenTracesAt: [session])
      #expect(coverage.missedTransitions.isEmpty, "\(type)")
      #expect(coverage.missedStates.isEmpty, "\(type)")
      #expect(coverage.exercisedShare == 1)
    }
    #expect(throws: FleetError.self) {
      try ProductionCoverage(
        production: result.summaries, reactor: "ReactorExamples.TaskCellReactor",
        goldenTracesAt: [tracesDirectory + "/counter.trace.jsonl"])
    }
  }
}
