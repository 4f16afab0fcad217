import ReactorExamples
import ReactorExploration
import ReactorTestSupport
import ReactorTracing
import Testing

@MainActor
@Suite struct CounterExplorationTests {
  private func explore(limit: Int, depth: Int) async throws -> Exploration {
    let explorer = ReactorExplorer<CounterReactor>(
      reactor: "ReactorExamples.CounterReactor", alphabet: [.increase, .decrease]
    ) { clock in CounterReactor(clock: clock, limit: limit) }
    var result: Exploration?
    try await withExclusiveMainSerialExecutor {
      result = try await explorer.explore(ExplorationOptions(maximumDepth: depth))
    }
    return try #require(result)
  }

  @Test func findsEveryRestingStateOfTheCounterIncludingTheAlertAtTheLimit() async throws {
    let exploration = try await explore(limit: 2, depth: 5)
    let resting = Set(
      exploration.states.filter(\.isSettled).map(\.value.serializedString))
    var expected: Set<String> = []
    for value in -5...2 {
      expected.insert(#"{"alertMessage":null,"isLoading":false,"value":\#(value)}"#)
    }
    // Three increases reach the limit and the alert; two decreases after it are the depth.
    for value in 0...2 {
      expected.insert(#"{"alertMessage":"Limit reached","isLoading":false,"value":\#(value)}"#)
    }
    #expect(resting == expected)
    #expect(exploration.stopReason == .depth(5))
    #expect(exploration.unsettledRunCount == 0)
  }

  @Test func passesThroughTheLoadingStatesAndTheAlertTransition() async throws {
    let exploration = try await explore(limit: 2, depth: 3)
    let loading = try StateCondition(parsing: "isLoading=true,value=2")
    let index = try #require(exploration.firstState(matching: loading))
    #expect(exploration.script(to: index).summary == "increase, increase")
    let alert = try #require(
      exploration.transitions.first { $0.mutation == #"setAlert("Limit reached")"# })
    #expect(exploration.states[alert.source].value["value"] == 2)
    #expect(exploration.script(forTransition: 0).steps.count == 1)
  }

  @Test func scriptsSendEachActionWhenTheEffectsOfTheLastOneEnded() async throws {
    let exploration = try await explore(limit: 2, depth: 3)
    let index = try #require(
      exploration.firstState(matching: try StateCondition(parsing: "alertMessage=Limit reached")))
    let lines = exploration.script(to: index).lines(
      reactor: "ReactorExamples.CounterReactor", metadata: ["limit": "2"])
    #expect(
      lines == [
        #"{"meta":{"limit":"2"},"reactor":"ReactorExamples.CounterReactor"}"#,
        #"{"action":"increase","t":0}"#,
        #"{"action":"increase","t":500}"#,
        #"{"action":"increase","t":1000}"#,
      ])
  }
}
