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

  @Test func findsEveryStateOfTheCounterIncludingTheAlertAtTheLimit() async throws {
    let exploration = try await explore(limit: 2, depth: 3)
    let texts = Set(exploration.states.map(\.value.serializedString))
    print(exploration.states.map(\.value.serializedString))
    #expect(texts.contains(#"{"alertMessage":"Limit reached","isLoading":false,"value":2}"#))
    #expect(exploration.stopReason == .depth(3))
  }
}
