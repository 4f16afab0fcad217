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
  /// Distinct transitions the traces make that the exploration did not reach, credited to
  /// an action.
  public var unexploredTransitionCount = 0
  /// Distinct transitions the traces make that are credited to a stream: an element no
  /// action of the trace published, which exploration (sending only actions) never makes.
  public var streamTransitionCount = 0
  /// How many traces were read.
  public var traceCount = 0

  private struct Key: Hashable {
    var source: Int
    var target: Int
    var mutation: String
    var action: String
  }

  /// Reads the traces at `paths` and matches them against `exploration`.
  /// - Throws: ``TraceReadError`` when a trace cannot be read.
  public init(of exploration: Exploration, tracesAt paths: [String]) throws(TraceReadError) {
    self.exploration = exploration
    var states: [JSONValue: Int] = [:]
    for (index, state) in exploration.states.enumerated() { states[state.value] = index }
    var transitions: [Key: Int] = [:]
    for (index, transition) in exploration.transitions.enumerated() {
      transitions[
        Key(
          source: transition.source, target: transition.target, mutation: transition.mutation,
          action: exploration.alphabet[transition.action].label)] = index
    }
    var unexplored: Set<[String]> = []
    var fromStreams: Set<[String]> = []
    for path in paths {
      let reader = try TraceReader(path: path)
      traceCount += 1
      var labels: [Int: String] = [:]
      var current = identity(of: reader.header.initialState)
      if let value = current, let index = states[value] { exercisedStates.insert(index) }
      while let event = try reader.next() {
        switch event.kind {
        case .action(let action):
          labels[action.id] = action.label
        case .mutation(let mutation):
          // Credited as exploration credits it: a stream's mutation whose element the
          // reactor's own action published goes to that action.
          let cause = mutation.attributedCause()
          let action: String =
            switch cause {
            case .action(let id), .effect(_, let id): labels[id] ?? "action #\(id)"
            case .stream(let name): "stream " + name
            }
          let next = identity(of: reader.currentState)
          let source = current.flatMap { states[$0] }
          let target = next.flatMap { states[$0] }
          if let target { exercisedStates.insert(target) }
          if let source, let target,
            let index = transitions[
              Key(source: source, target: target, mutation: mutation.label, action: action)]
          {
            exercisedTransitions.insert(index)
          } else {
            let transition = [
              current?.serializedString ?? "", next?.serializedString ?? "", mutation.label,
              action,
            ]
            if case .stream = cause {
              fromStreams.insert(transition)
            } else {
              unexplored.insert(transition)
            }
          }
          current = next
        default:
          break
        }
      }
    }
    unexploredTransitionCount = unexplored.count
    streamTransitionCount = fromStreams.count
  }

  private func identity(of state: TraceHeader.State) -> JSONValue? {
    guard case .json(let json) = state else { return nil }
    return exploration.identity.identity(of: json)
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

  /// The coverage as JSON, for CI: shares, counts, and each missed transition with its
  /// shortest script.
  public var json: JSONValue {
    let missed = missedTransitions.map { index in
      let transition = exploration.transitions[index]
      let script = exploration.script(forTransition: index)
      return JSONValue.object(
        JSONObject([
          ("source", .string("s\(transition.source)")),
          ("target", .string("s\(transition.target)")),
          ("mutation", .string(transition.mutation)),
          ("action", .string(exploration.alphabet[transition.action].label)),
          ("script", .array(script.steps.map { .string($0.action.label) })),
        ]))
    }
    return .object(
      JSONObject([
        ("reactor", .string(exploration.reactor)),
        ("traces", .int(Int64(traceCount))),
        (
          "states",
          .object(
            JSONObject([
              ("reachable", .int(Int64(exploration.states.count))),
              ("exercised", .int(Int64(exercisedStates.count))),
              ("share", .double(stateShare)),
            ]))
        ),
        (
          "transitions",
          .object(
            JSONObject([
              ("reachable", .int(Int64(exploration.transitions.count))),
              ("exercised", .int(Int64(exercisedTransitions.count))),
              ("share", .double(transitionShare)),
              ("outsideExploration", .int(Int64(unexploredTransitionCount))),
              ("fromStreams", .int(Int64(streamTransitionCount))),
            ]))
        ),
        ("stoppedBy", .string(exploration.stopReason.description)),
        ("missed", .array(missed)),
      ]))
  }
}
