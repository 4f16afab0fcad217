public import ReactorExploration
public import ReactorStateMachines
import ReactorTracing

/// What production does that a set of golden traces never exercises: the states production
/// reaches and the transitions it makes that no golden trace does, most frequent first, each
/// with the shortest script an exploration of the reactor found for it.
///
/// The golden traces are summarized with the abstraction the production summaries used, so
/// both sides name states the same way.
///
/// ```swift
/// let coverage = try ProductionCoverage(
///   production: merged.summaries, reactor: nil, goldenTracesAt: ["Traces/profile.trace.jsonl"])
/// for missed in coverage.missedTransitions.prefix(5) { print(missed.count, missed.mutation) }
/// ```
public struct ProductionCoverage: Sendable {
  /// A transition production makes and no golden trace does.
  public struct MissedTransition: Sendable, Hashable {
    /// The state before the mutation, under the abstraction.
    public var from: String
    /// The action's case, or `stream NAME`.
    public var action: String
    /// The mutation's case.
    public var mutation: String
    /// The state after the mutation.
    public var to: String
    /// How many times production made it.
    public var count: Int
    /// In how many production traces it happened (summed over lines: a trace counted once
    /// per app version and metadata it ran with).
    public var traces: Int
    /// The app versions that made it, sorted.
    public var appVersions: [String]
    /// The shortest script the exploration found that makes it, or `nil`.
    public var script: ExplorationScript?

    /// The transition itself, without its counts.
    public var transition: StateTransition {
      StateTransition(source: from, target: to, mutation: mutation, action: action)
    }
  }

  /// A state production reaches and no golden trace does.
  public struct MissedState: Sendable, Hashable {
    /// The state, under the abstraction.
    public var state: String
    /// How many production transitions led into it.
    public var count: Int
    /// The shortest script the exploration found that reaches it, or `nil`.
    public var script: ExplorationScript?
  }

  /// The reactor.
  public let reactor: String
  /// The abstraction both sides were compared under.
  public let abstraction: StateAbstraction
  /// How many golden traces were read.
  public let goldenTraceCount: Int
  /// All production transitions, counted.
  public let productionCount: Int
  /// Distinct production transitions (over versions and metadata).
  public let productionTransitionCount: Int
  /// Distinct states production reaches.
  public let productionStateCount: Int
  /// States production reaches and the golden traces never do, most frequent first.
  public private(set) var missedStates: [MissedState] = []
  /// Transitions production makes and the golden traces never do, most frequent first.
  public private(set) var missedTransitions: [MissedTransition] = []

  /// Compares production with golden traces.
  ///
  /// - Parameters:
  ///   - production: Summary lines of production runs.
  ///   - reactor: The reactor to compare; needed when the lines hold several.
  ///   - paths: Golden traces of that reactor, or sessions with reactors of its type (`.gz`
  ///     or not); every reactor of the type counts.
  /// - Throws: ``FleetError``: unreadable traces, mixed reactors or abstractions.
  public init(
    production: [TransitionSummary], reactor: String?, goldenTracesAt paths: [String]
  ) throws(FleetError) {
    let graph = try ProductionGraph(
      summaries: production, selection: ProductionGraph.Selection(reactor: reactor))
    self.reactor = graph.reactor
    abstraction = graph.abstraction
    let summarizer = TraceSummarizer(abstractions: [graph.reactor: graph.abstraction])
    var goldenEdges: Set<StateTransition> = []
    var goldenStates: Set<String> = []
    for path in paths {
      let reader = try FleetFiles.sessionReader(at: path)
      var recorded: [String] = []
      let lines = try summarizer.summarize(reader) { event in
        guard case .introduced(let introduction) = event.kind else { return }
        if !recorded.contains(introduction.type) { recorded.append(introduction.type) }
        guard introduction.type == graph.reactor else { return }
        goldenStates.insert(
          TraceSummarizer.text(of: introduction.initialState, under: graph.abstraction))
      }
      guard recorded.contains(graph.reactor) else {
        throw .mixedSummaries(
          "\(path) records \(recorded.joined(separator: ", ")), not \(graph.reactor)")
      }
      for line in lines {
        goldenEdges.insert(line.key.transition)
        goldenStates.insert(line.key.from)
        goldenStates.insert(line.key.to)
      }
    }
    goldenTraceCount = paths.count
    var edges: [StateTransition: MissedTransition] = [:]
    var stateCounts: [String: Int] = [:]
    var total = 0
    for line in production
    where line.key.reactor == graph.reactor && line.key.abstraction == abstraction.summaryText {
      total &+= line.count
      stateCounts[line.key.to, default: 0] &+= line.count
      if stateCounts[line.key.from] == nil { stateCounts[line.key.from] = 0 }
      let edge = line.key.transition
      var missed =
        edges[edge]
        ?? MissedTransition(
          from: edge.source, action: edge.action, mutation: edge.mutation, to: edge.target,
          count: 0,
          traces: 0, appVersions: [], script: nil)
      missed.count &+= line.count
      missed.traces &+= line.traces
      if !missed.appVersions.contains(line.key.appVersion) {
        missed.appVersions.append(line.key.appVersion)
        missed.appVersions.sort()
      }
      edges[edge] = missed
    }
    productionCount = total
    productionTransitionCount = edges.count
    productionStateCount = stateCounts.count
    missedTransitions = edges.filter { !goldenEdges.contains($0.key) }.values.sorted {
      ($0.count, $1.from, $1.action, $1.mutation, $1.to)
        > ($1.count, $0.from, $0.action, $0.mutation, $0.to)
    }
    missedStates = stateCounts.filter { !goldenStates.contains($0.key) }.map {
      MissedState(state: $0.key, count: $0.value, script: nil)
    }.sorted { ($0.count, $1.state) > ($1.count, $0.state) }
  }

  /// The share of production transitions (counted, not distinct) the golden traces make.
  public var exercisedShare: Double {
    guard productionCount > 0 else { return 1 }
    let missed = missedTransitions.reduce(0) { $0 &+ $1.count }
    return Double(productionCount - missed) / Double(productionCount)
  }

  /// Fills in each missed state's and transition's shortest script from an exploration of
  /// the reactor (states and transitions it did not reach keep `nil`).
  ///
  /// - Parameter exploration: An exploration of ``reactor``.
  public mutating func addScripts(from exploration: Exploration) {
    var stateTexts: [String] = []
    var firstState: [String: Int] = [:]
    // States come in breadth-first order: the first of each text is the nearest.
    for (index, state) in exploration.states.enumerated() {
      let text = TraceSummarizer.text(of: .json(state.value), under: abstraction)
      stateTexts.append(text)
      if firstState[text] == nil { firstState[text] = index }
    }
    var firstTransition: [StateTransition: Int] = [:]
    for (index, transition) in exploration.transitions.enumerated() {
      let edge = StateTransition(
        source: stateTexts[transition.source], target: stateTexts[transition.target],
        mutation: StateTransition.caseName(of: transition.mutation),
        action: StateTransition.caseName(of: exploration.alphabet[transition.action].label))
      let known = firstTransition[edge].map {
        exploration.script(forTransition: $0).steps.count
      }
      if known == nil || exploration.script(forTransition: index).steps.count < known! {
        firstTransition[edge] = index
      }
    }
    for index in missedStates.indices {
      if let state = firstState[missedStates[index].state] {
        missedStates[index].script = exploration.script(to: state)
      }
    }
    for index in missedTransitions.indices {
      let missed = missedTransitions[index]
      let edge = missed.transition
      if let transition = firstTransition[edge] {
        missedTransitions[index].script = exploration.script(forTransition: transition)
      }
    }
  }
}
