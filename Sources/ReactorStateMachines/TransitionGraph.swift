public import ReactorTracing

/// The states a reactor went through and the mutations that moved it between them, merged
/// from one or more traces.
///
/// Nodes are distinct states under a ``StateAbstraction``, in order of first appearance;
/// edges are observed transitions, one per source, target, mutation label and action label,
/// with how often each was seen. Traces are streamed: memory grows with the graph, not with
/// the traces.
///
/// ```swift
/// var graph = TransitionGraph(abstraction: StateAbstraction(keys: ["isLoading"]))
/// try graph.add(TraceReader(path: "counter.trace.jsonl"))
/// let dot = try graph.dotGraph().serialized()
/// let mermaid = try graph.mermaid()
/// ```
public struct TransitionGraph: Sendable, Hashable {
  /// A node: one distinct state under the abstraction.
  public struct State: Sendable, Hashable {
    /// The node's id: `s0`, `s1` and so on, in order of first appearance.
    public var id: String

    /// The fields the state shows.
    public var fields: [StateField]

    /// Whether some trace starts in this state.
    public var isInitial: Bool

    /// The state's full text: one field per line; names the state in a ``TransitionFilter``.
    public var text: String { TransitionGraph.key(of: fields) }
  }

  /// An edge: a transition seen at least once.
  public struct Transition: Sendable, Hashable {
    /// The index in ``TransitionGraph/states`` of the state before the mutation.
    public var source: Int

    /// The index in ``TransitionGraph/states`` of the state after the mutation.
    public var target: Int

    /// The mutation's label.
    public var mutation: String

    /// The label of the action behind the mutation, or `stream name` for a stream's mutation.
    public var action: String

    /// The pulses the mutation fired, as `name: value`; empty for most.
    public var events: [String]

    /// How many times the transition was seen.
    public var count: Int

    /// Whether the mutation left the state unchanged (under the abstraction).
    public var isSelfLoop: Bool { source == target }
  }

  private struct TransitionKey: Hashable {
    var source: Int
    var target: Int
    var mutation: String
    var action: String
    var events: [String]
  }

  /// How states become nodes.
  public let abstraction: StateAbstraction

  /// The reactor the traces record, once a trace was added.
  public private(set) var reactor: String?

  /// The states, in order of first appearance.
  public private(set) var states: [State] = []

  /// The transitions, in order of first appearance.
  public private(set) var transitions: [Transition] = []

  /// The index of the state the last trace ended in.
  public private(set) var finalState: Int?

  /// The index of the last trace's last transition.
  public private(set) var lastTransition: Int?

  /// How many traces were added.
  public private(set) var traceCount = 0

  /// How many mutations were seen across all traces.
  public private(set) var mutationCount = 0

  /// How many events recorders dropped in the traces' gaps (``TraceEvent/Gap``).
  ///
  /// The graph is of incomplete traces when it is not 0. The state after a gap is a node,
  /// but no edge leads to it from the state before the gap, since the mutations between are
  /// unknown.
  public private(set) var droppedEventCount = 0

  /// How big the graph may grow while reading before it gives up.
  ///
  /// Far beyond anything drawable, so that filters still have room, but bounded so that a
  /// trace whose every state differs does not fill memory: 100,000 states or transitions
  /// unless set.
  public var collectionLimit = DiagramSizeLimit(maximumNodes: 100_000, maximumEdges: 100_000)

  private var stateIndex: [String: Int] = [:]
  private var transitionIndex: [TransitionKey: Int] = [:]
  /// For each transition, the traces that took it (their order of adding, from 0), ascending.
  private var tracesTaking: [[Int]] = []

  /// Creates an empty graph.
  ///
  /// - Parameter abstraction: How states become nodes.
  public init(abstraction: StateAbstraction = .wholeState) {
    self.abstraction = abstraction
  }

  /// Reads the traces at `paths` into a new graph.
  ///
  /// - Parameters:
  ///   - paths: Trace files of one reactor.
  ///   - abstraction: How states become nodes.
  /// - Throws: ``TransitionGraphError`` when a trace cannot be read or records another reactor.
  public init(
    tracesAt paths: [String], abstraction: StateAbstraction = .wholeState
  ) throws(TransitionGraphError) {
    self.init(abstraction: abstraction)
    for path in paths {
      let reader: TraceReader
      do {
        reader = try TraceReader(path: path)
      } catch {
        throw .unreadableTrace(error)
      }
      try add(reader)
    }
  }

  /// Streams the rest of a trace into the graph, merging it with the traces added before.
  ///
  /// The reader must verify states (the default), since the graph follows
  /// ``TraceReader/currentState``. Only the labels of actions that may still send mutations
  /// are kept while reading.
  ///
  /// Mutations are credited as
  /// ``ReactorTracing/TraceEvent/Mutation/attributedCause(reactor:)`` says: a stream's
  /// mutation whose element this reactor's own action published is that action's.
  ///
  /// - Parameters:
  ///   - reader: A reader that has read no event yet.
  ///   - sessionReactor: The reactor's id in its session, when the trace is a session's lane: a
  ///     stream element whose `from` names it is the reactor's own doing. `nil` for a trace
  ///     of one reactor, which says so with `publishedBy`.
  /// - Throws: ``TransitionGraphError`` when the trace cannot be read or records another
  ///   reactor.
  public mutating func add(
    _ reader: TraceReader, sessionReactor: Int? = nil
  ) throws(TransitionGraphError) {
    if let reactor, reactor != reader.header.reactor {
      throw .differentReactors(
        expected: reactor, found: reader.header.reactor, path: reader.path)
    }
    reactor = reader.header.reactor
    traceCount += 1
    var recent = RecentProjections()
    var current = try node(for: reader.header.initialState, recent: &recent)
    states[current].isInitial = true
    var actions = ActionLabels()
    var pulses = PulseCounts(fields: abstraction.eventFields, state: reader.header.initialState)
    var last: Int?
    var isAfterGap = false
    do {
      while let event = try reader.next() {
        switch event.kind {
        case .gap(let gap):
          droppedEventCount += gap.droppedEvents
          isAfterGap = true
        case .jump:
          // Set from outside the app: the run goes on from that state, with no transition.
          current = try node(for: reader.currentState, recent: &recent)
          pulses = PulseCounts(fields: abstraction.eventFields, state: reader.currentState)
        case .mutation where isAfterGap:
          current = try node(for: reader.currentState, recent: &recent)
          mutationCount += 1
          isAfterGap = false
        case .action(let action):
          actions.record(action)
        case .effectStarted(let start):
          actions.effectStarted(start)
        case .effectEnded(let end):
          actions.effectEnded(end)
        case .mutation(let mutation):
          // Most mutations of a projected state leave its fields alone: their diff says so.
          let target =
            abstraction.keepsFields(through: mutation.state)
            ? current : try node(for: reader.currentState, recent: &recent)
          let action = actions.label(for: mutation.attributedCause(reactor: sessionReactor))
          let events = pulses.fired(through: mutation.state, state: reader.currentState)
          last = try record(
            from: current, to: target, mutation: mutation.label, action: action, events: events)
          current = target
          mutationCount += 1
        case .streamEnded, .end:
          break
        }
      }
    } catch let error as TraceReadError {
      throw .unreadableTrace(error)
    } catch let error as TransitionGraphError {
      throw error
    } catch {
      preconditionFailure("unexpected error \(error)")
    }
    finalState = current
    lastTransition = last
  }

  /// The node of `state`, found among the recent projections when the state is projected.
  private mutating func node(
    for state: TraceHeader.State, recent: inout RecentProjections
  ) throws(TransitionGraphError) -> Int {
    guard !abstraction.isWholeState, case .json(let json) = state else {
      return try node(for: state)
    }
    let values = abstraction.projectedValues(of: json)
    if let node = recent.node(for: values) { return node }
    let node = try node(for: state)
    recent.remember(values, node: node)
    return node
  }

  /// The index in ``states`` of the node `state` falls in under the graph's abstraction, or
  /// `nil` when no trace reached that node.
  ///
  /// - Parameter state: A state rebuilt by ``TraceReader``.
  /// - Returns: The node's index, or `nil`.
  public func stateIndex(of state: TraceHeader.State) -> Int? {
    stateIndex[Self.key(of: abstraction.fields(of: state))]
  }

  /// The key of a node in `stateIndex`: its ``State/text``.
  private static func key(of fields: [StateField]) -> String {
    fields.map(\.text).joined(separator: "\n")
  }

  private mutating func node(
    for state: TraceHeader.State
  ) throws(TransitionGraphError) -> Int {
    let fields = abstraction.fields(of: state)
    let key = Self.key(of: fields)
    if let index = stateIndex[key] { return index }
    let index = states.count
    guard index < collectionLimit.maximumNodes else {
      throw .tooLargeToCollect(limit: collectionLimit)
    }
    states.append(State(id: "s\(index)", fields: fields, isInitial: false))
    stateIndex[key] = index
    return index
  }

  private mutating func record(
    from source: Int, to target: Int, mutation: String, action: String, events: [String]
  ) throws(TransitionGraphError) -> Int {
    let key = TransitionKey(
      source: source, target: target, mutation: mutation, action: action, events: events)
    // The trace being read, when the transition comes from one.
    let trace = traceCount > 0 ? traceCount - 1 : nil
    if let index = transitionIndex[key] {
      transitions[index].count += 1
      if let trace, tracesTaking[index].last != trace { tracesTaking[index].append(trace) }
      return index
    }
    let index = transitions.count
    guard index < collectionLimit.maximumEdges else {
      throw .tooLargeToCollect(limit: collectionLimit)
    }
    transitions.append(
      Transition(
        source: source, target: target, mutation: mutation, action: action, events: events,
        count: 1))
    tracesTaking.append(trace.map { [$0] } ?? [])
    transitionIndex[key] = index
    return index
  }

  /// How many of the traces added took at least one of these transitions: for a graph that
  /// merges the reactors of one type in a session, how many instances took an edge.
  ///
  /// - Parameter indices: Indices in ``transitions``.
  /// - Returns: The number of distinct traces among those that took them.
  public func traceCount(taking indices: some Sequence<Int>) -> Int {
    var traces: Set<Int> = []
    for index in indices where tracesTaking.indices.contains(index) {
      traces.formUnion(tracesTaking[index])
    }
    return traces.count
  }
}

extension TransitionGraph {
  /// Returns the graph with only the transitions `filter` keeps, and the states they touch.
  ///
  /// Initial states and the focus stay even without transitions. States keep their order and
  /// are renumbered `s0`, `s1`, ...; transitions keep their order and counts.
  ///
  /// - Parameter filter: What to keep.
  /// - Returns: The filtered graph.
  /// - Throws: ``TransitionGraphError/unknownState(_:)`` when the focus names no state.
  public func filtered(by filter: TransitionFilter) throws(TransitionGraphError) -> Self {
    var kept = transitions.indices.filter { index in
      let transition = transitions[index]
      return transition.count >= filter.minimumCount
        && !(filter.hidesSelfLoops && transition.isSelfLoop)
    }
    var keptStates = Set(states.indices.filter { states[$0].isInitial })
    if let focus = filter.focus {
      guard let center = states.firstIndex(where: { $0.id == focus || $0.text == focus }) else {
        throw .unknownState(focus)
      }
      var reached: Set<Int> = [center]
      var frontier: Set<Int> = [center]
      for _ in 0..<max(filter.hops, 0) {
        var next: Set<Int> = []
        for index in kept {
          let transition = transitions[index]
          if frontier.contains(transition.source) && !reached.contains(transition.target) {
            next.insert(transition.target)
          }
          if frontier.contains(transition.target) && !reached.contains(transition.source) {
            next.insert(transition.source)
          }
        }
        reached.formUnion(next)
        frontier = next
      }
      kept = kept.filter {
        reached.contains(transitions[$0].source) && reached.contains(transitions[$0].target)
      }
      keptStates = [center]
    }
    for index in kept {
      keptStates.insert(transitions[index].source)
      keptStates.insert(transitions[index].target)
    }
    var result = TransitionGraph(abstraction: abstraction)
    result.reactor = reactor
    result.traceCount = traceCount
    result.mutationCount = mutationCount
    var renumbered: [Int: Int] = [:]
    for index in states.indices where keptStates.contains(index) {
      var state = states[index]
      renumbered[index] = result.states.count
      state.id = "s\(result.states.count)"
      result.stateIndex[state.text] = result.states.count
      result.states.append(state)
    }
    for index in kept {
      var transition = transitions[index]
      transition.source = renumbered[transition.source]!
      transition.target = renumbered[transition.target]!
      if index == lastTransition { result.lastTransition = result.transitions.count }
      result.transitionIndex[
        TransitionKey(
          source: transition.source, target: transition.target,
          mutation: transition.mutation, action: transition.action, events: transition.events)] =
        result.transitions.count
      result.transitions.append(transition)
      result.tracesTaking.append(tracesTaking[index])
    }
    result.finalState = finalState.flatMap { renumbered[$0] }
    return result
  }

  /// Throws when the graph is larger than `limit`.
  package func check(_ limit: DiagramSizeLimit) throws(TransitionGraphError) {
    guard states.count <= limit.maximumNodes, transitions.count <= limit.maximumEdges else {
      throw .tooLarge(states: states.count, transitions: transitions.count, limit: limit)
    }
  }
}

extension TransitionGraph {
  /// Adds a state that did not come from a trace, such as one an exploration reached, and
  /// returns its index; an equal state already in the graph is returned instead.
  ///
  /// - Parameters:
  ///   - state: The state, shown through the graph's abstraction.
  ///   - isInitial: Whether runs start in it.
  /// - Returns: The state's index in ``states``.
  /// - Throws: ``TransitionGraphError/tooLargeToCollect(limit:)`` beyond ``collectionLimit``.
  public mutating func addState(
    _ state: TraceHeader.State, isInitial: Bool = false
  ) throws(TransitionGraphError) -> Int {
    let index = try node(for: state)
    if isInitial { states[index].isInitial = true }
    return index
  }

  /// Adds a transition that did not come from a trace, or counts it again.
  ///
  /// - Parameters:
  ///   - source: The index of the state before the mutation.
  ///   - target: The index of the state after it.
  ///   - mutation: The mutation's label.
  ///   - action: The label of the action behind it.
  ///   - events: The pulses it fired, as `name: value`; none unless given.
  /// - Returns: The transition's index in ``transitions``.
  /// - Throws: ``TransitionGraphError/tooLargeToCollect(limit:)`` beyond ``collectionLimit``.
  @discardableResult
  public mutating func addTransition(
    from source: Int, to target: Int, mutation: String, action: String, events: [String] = []
  ) throws(TransitionGraphError) -> Int {
    mutationCount += 1
    return try record(
      from: source, to: target, mutation: mutation, action: action, events: events)
  }

  /// Names the reactor the graph shows, for a graph built without traces.
  public mutating func setReactor(_ name: String) {
    reactor = name
  }

  /// Adds a state known only by its fields, such as one a transition summary names, and
  /// returns its index; a state with equal fields already in the graph is returned instead.
  ///
  /// - Parameters:
  ///   - fields: The fields the state shows.
  ///   - isInitial: Whether runs start in it.
  /// - Returns: The state's index in ``states``.
  /// - Throws: ``TransitionGraphError/tooLargeToCollect(limit:)`` beyond ``collectionLimit``.
  public mutating func addState(
    fields: [StateField], isInitial: Bool = false
  ) throws(TransitionGraphError) -> Int {
    let key = Self.key(of: fields)
    if let index = stateIndex[key] {
      if isInitial { states[index].isInitial = true }
      return index
    }
    let index = states.count
    guard index < collectionLimit.maximumNodes else {
      throw .tooLargeToCollect(limit: collectionLimit)
    }
    states.append(State(id: "s\(index)", fields: fields, isInitial: isInitial))
    stateIndex[key] = index
    return index
  }

  /// Adds a transition seen `count` times, such as a summary line's, or counts it again.
  ///
  /// - Parameters:
  ///   - source: The index of the state before the mutation.
  ///   - target: The index of the state after it.
  ///   - mutation: The mutation's label.
  ///   - action: The label of the action behind it.
  ///   - count: How many times it was seen; at least 1.
  /// - Returns: The transition's index in ``transitions``.
  /// - Throws: ``TransitionGraphError/tooLargeToCollect(limit:)`` beyond ``collectionLimit``.
  @discardableResult
  public mutating func addTransition(
    from source: Int, to target: Int, mutation: String, action: String, count: Int
  ) throws(TransitionGraphError) -> Int {
    let index = try record(from: source, to: target, mutation: mutation, action: action, events: [])
    transitions[index].count = transitions[index].count &+ (count - 1)
    mutationCount = mutationCount &+ count
    return index
  }
}
