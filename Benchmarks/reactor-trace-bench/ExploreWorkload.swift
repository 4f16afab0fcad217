import ReactorExamples
import ReactorExploration
import ReactorTracing

/// The exploration rows: the example Counter and GitHubSearch explored breadth first, timed
/// in-process and verified against the states each must find.
@MainActor
enum ExploreWorkload {
  /// What is explored.
  enum Scenario: String, CaseIterable, Sendable {
    /// The Counter, limit 10, increase and decrease, to depth 30: 61 resting states (values
    /// -30...10, and with the alert 10 down to -9).
    case counter
    /// GitHubSearch with five actions to depth 6 (it rests in 8 states, so 40 runs a pass).
    case githubSearch = "github-search"

    /// The runs one exploration makes.
    var runsPerExploration: Int {
      switch self {
      case .counter: 118
      case .githubSearch: 40
      }
    }
  }

  /// Explores `repetitions` times and reports the runs (actions sent to a resting state) per
  /// second; repeating shows that memory does not grow with the runs.
  static func run(
    _ scenario: Scenario, repetitions: Int
  ) async throws(BenchFailure) -> ChildReport {
    let verification = Verification(scenario: "explore-\(scenario.rawValue)")
    let clock = ContinuousClock()
    var runs = 0
    var last: Exploration?
    let start = clock.now
    do {
      for _ in 0..<repetitions {
        let exploration = try await explore(scenario)
        runs += exploration.runCount
        last = exploration
      }
    } catch {
      throw .verification(scenario: verification.scenario, reason: error.description)
    }
    let seconds = start.duration(to: clock.now).seconds
    guard let last else { return ChildReport(seconds: seconds, units: 0) }
    try verification.expect("runs", runs, equals: repetitions * scenario.runsPerExploration)
    try verification.expect("unsettled runs", last.unsettledRunCount, equals: 0)
    switch scenario {
    case .counter:
      let resting = last.states.filter(\.isSettled)
      try verification.expect("resting states", resting.count, equals: 61)
      try verification.require(
        resting.contains {
          $0.value["alertMessage"] == "Limit reached" && $0.value["value"] == 10
        },
        "the alert at the limit was not found")
      try verification.expect("stopped by", last.stopReason, equals: .depth(30))
    case .githubSearch:
      try verification.expect("resting states", last.states.count(where: \.isSettled), equals: 8)
      try verification.expect("stopped by", last.stopReason, equals: .fixedPoint)
    }
    return ChildReport(seconds: seconds, units: runs)
  }

  private static func explore(_ scenario: Scenario) async throws(ExplorationError) -> Exploration {
    switch scenario {
    case .counter:
      return try await ReactorExplorer<CounterReactor>(
        reactor: "ReactorExamples.CounterReactor", alphabet: [.increase, .decrease]
      ) { clock in CounterReactor(clock: clock, limit: 10) }
      .explore(ExplorationOptions(maximumDepth: 30))
    case .githubSearch:
      return try await ReactorExplorer<GitHubSearchReactor>(
        reactor: "ReactorExamples.GitHubSearchReactor",
        alphabet: [
          .updateQuery("swift"), .updateQuery("rx"), .updateQuery(""), .updateQuery("a!"),
          .loadNextPage,
        ]
      ) { clock in
        GitHubSearchReactor(service: FakeGitHubSearchService(clock: clock))
      }
      .explore(ExplorationOptions(maximumDepth: 6))
    }
  }
}
