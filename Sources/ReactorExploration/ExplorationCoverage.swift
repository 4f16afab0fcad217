public import ReactorTracing

/// How much of an explored graph a set of traces exercises: which reachable states they
/// pass through and which transitions they make.
///
/// A trace's states and transitions are matched under the exploration's ``StateIdentity``:
/// a transition counts when a trace makes the same mutation, caused by an action with the
/// same label, between the same two states. A mutation is credited by
/// ``ReactorTracing/TraceEvent/Mutation/attributedCause(reactor:)``: one made from a stream
/// element that the reactor's own action published counts for that action. Traces also make transitions the exploration did
/// not reach (an action sent while an effect still ran, or beyond its bounds); those are
/// counted apart, and so are the transitions of streams no action of the trace published (a
/// scripted event, another screen): exploration sends only actions.
///
/// ```swift
/// let coverage = try ExplorationCoverage(of: exploration, tracesAt: ["counter.trace.jsonl"])
/// print(coverage.transitionShare)  // 0.53
/// ```
public struct ExplorationCoverage: Sendable {
  /// The explored graph.
  public var exploration: Exploration
  /// Indices of the explored states some trace passes through.
  public var exercisedStates: Set<Int> = []
  /// Indices of the explored transitions some trace makes.
  public var exercisedTransitions: Set<Int> = []
  /// How many traces were read.
  public var traceCount = 0
  /// The coverage as matched: every explored state its own abstract state, named `s0`,
  /// `s1`… by its index, and every label whole.
  public var matched: AbstractedCoverage

  /// Reads the traces at `paths` and matches them against `exploration`.
  /// - Throws: ``TraceReadError`` when a trace cannot be read.
  public init(of exploration: Exploration, tracesAt paths: [String]) throws {
    try self.init(
      of: exploration, traces: paths.map { path in (nil, { try TraceReader(path: path) }) })
  }

  /// Reads the traces and matches them against `exploration`.
  /// - Parameters:
  ///   - exploration: The explored graph.
  ///   - openers: One function per trace that opens a reader of it, with the reactor's id in
  ///     its session (`nil` for a trace of one reactor).
  /// - Throws: The error an opener or a reader throws.
  public init(
    of exploration: Exploration, traces openers: [(reactor: Int?, open: () throws -> TraceReader)]
  ) throws {
    self.exploration = exploration
    // Coverage through a view that keeps every explored state (`s0`, `s1`…; an explored
    // state is its identity already, a trace's state is matched by its identity) and every
    // label whole.
    var indices: [JSONValue: Int] = [:]
    for (index, state) in exploration.states.enumerated() { indices[state.value] = index }
    let identity = exploration.identity
    matched = try AbstractedCoverage(
      of: exploration, traces: openers,
      state: { state in
        let index = indices[state] ?? indices[identity.identity(of: state)]
        return index.map { "s\($0)" } ?? identity.identity(of: state).serializedString
      }, label: { $0 })
    traceCount = matched.traceCount
    exercisedStates = Set(matched.exercisedStates.compactMap { Int($0.dropFirst()) })
    exercisedTransitions = Set(
      matched.transitions.indices.filter {
        matched.exercisedTransitions.contains(matched.transitions[$0])
      }
      .map { matched.firstTransition[$0] })
  }

  /// The share of explored states exercised, from 0 to 1.
  public var stateShare: Double {
    exploration.states.isEmpty
      ? 1 : Double(exercisedStates.count) / Double(exploration.states.count)
  }

  /// The share of explored transitions exercised, from 0 to 1.
  public var transitionShare: Double {
    exploration.transitions.isEmpty
      ? 1 : Double(exercisedTransitions.count) / Double(exploration.transitions.count)
  }

  /// Indices of the explored transitions no trace makes, in order of discovery (so nearer
  /// ones first).
  public var missedTransitions: [Int] {
    exploration.transitions.indices.filter { !exercisedTransitions.contains($0) }
  }

  /// Distinct transitions the traces make that the exploration did not reach, credited to
  /// an action.
  public var unexploredTransitionCount: Int { matched.unexploredTransitionCount }

  /// Distinct transitions the traces make that are credited to a stream: an element no
  /// action of the trace published, which exploration (sending only actions) never makes.
  public var streamTransitionCount: Int { matched.streamTransitionCount }

  /// The coverage as JSON, for CI, in ``AbstractedCoverage/json``'s shape.
  public var json: JSONValue { matched.json }
}
