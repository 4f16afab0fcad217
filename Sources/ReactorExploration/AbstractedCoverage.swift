public import ReactorStateMachines
public import ReactorTracing

/// How much of an explored graph traces exercise when states and labels are seen through an
/// abstraction: what `coverage` reports per reactor type of a session, where many instances
/// of one type, each starting from its own state, are merged.
///
/// The exploration starts from the registered factory's reactor, the instances of a session
/// from their own states (a row of a list from its task): compared whole, most of their
/// states would never meet the exploration's. Seen through the type's abstraction (the
/// fields a state machine of the type keeps) and with labels reduced to their case names,
/// an abstract state is exercised when some trace passes through it, and an abstract
/// transition (abstract source, abstract target, mutation case, action case) when some
/// trace makes it. Mutations are credited by ``ReactorTracing/TraceEvent/Mutation/attributedCause(reactor:)``:
/// a stream's mutation that the reactor's own action published counts as that action's, as
/// the exploration counts it.
///
/// ```swift
/// let coverage = try AbstractedCoverage(
///   of: exploration, traces: lanes.map { lane in (3, { try TraceReader(bytes: lane) }) },
///   state: { state in machine.key(of: state) })
/// print(coverage.exercisedTransitions.count, "of", coverage.transitions.count)
/// ```
public struct AbstractedCoverage: Sendable {
  /// An abstract transition: its abstract states and the case names of its labels.
  public typealias Transition = StateTransition

  /// The explored graph.
  public var exploration: Exploration
  /// The distinct abstract states the exploration reached, in order of discovery.
  public var states: [String] = []
  /// The distinct abstract transitions the exploration made, in order of discovery.
  public var transitions: [Transition] = []
  /// For each abstract transition, the first explored transition that makes it (whose
  /// shortest script makes it too).
  public var firstTransition: [Int] = []
  /// The abstract states the traces pass through that the exploration reached.
  public var exercisedStates: Set<String> = []
  /// The abstract transitions the traces make that the exploration made.
  public var exercisedTransitions: Set<Transition> = []
  /// The distinct abstract transitions the traces make that the exploration did not.
  public var observedOutside: [Transition] = []
  /// How many traces were read.
  public var traceCount = 0

  /// Reads the traces and matches them against `exploration` through the abstraction.
  /// - Parameters:
  ///   - exploration: The explored graph, its states whole (``StateIdentity/wholeState``).
  ///   - openers: One function per trace that opens a reader of it, with the reactor's id in
  ///     its session (`nil` for a trace of one reactor).
  ///   - abstract: The abstract state of a whole state's JSON.
  ///   - label: What of a label counts: its case name (``StateTransition/caseName(of:)``) by default.
  /// - Throws: The error an opener or a reader throws.
  public init(
    of exploration: Exploration, traces openers: [(reactor: Int?, open: () throws -> TraceReader)],
    state abstract: (JSONValue) -> String, label: (String) -> String = StateTransition.caseName(of:)
  ) throws {
    self.exploration = exploration
    let explored = exploration.states.map { abstract($0.value) }
    var seenStates: Set<String> = []
    for key in explored where seenStates.insert(key).inserted { states.append(key) }
    var seenTransitions: Set<Transition> = []
    for (index, transition) in exploration.transitions.enumerated() {
      let abstracted = Transition(
        source: explored[transition.source], target: explored[transition.target],
        mutation: label(transition.mutation),
        action: label(exploration.alphabet[transition.action].label))
      if seenTransitions.insert(abstracted).inserted {
        transitions.append(abstracted)
        firstTransition.append(index)
      }
    }
    var outside: Set<Transition> = []
    for (reactor, open) in openers {
      let reader = try open()
      traceCount += 1
      var labels: [Int: String] = [:]
      var current = abstract(Self.json(reader.header.initialState))
      if seenStates.contains(current) { exercisedStates.insert(current) }
      while let event = try reader.next() {
        switch event.kind {
        case .action(let action):
          labels[action.id] = action.label
        case .mutation(let mutation):
          // Credited as docs/semantics.md says: a stream's mutation that this reactor's own
          // action published is that action's, as the exploration counts it.
          let action: String =
            switch mutation.attributedCause(reactor: reactor) {
            case .action(let id), .effect(_, let id): labels[id] ?? "action #\(id)"
            case .stream(let name): "stream " + name
            }
          let next = abstract(Self.json(reader.currentState))
          if seenStates.contains(next) { exercisedStates.insert(next) }
          let made = Transition(
            source: current, target: next, mutation: label(mutation.label),
            action: label(action))
          if seenTransitions.contains(made) {
            exercisedTransitions.insert(made)
          } else if outside.insert(made).inserted {
            observedOutside.append(made)
          }
          current = next
        case .jump:
          // Set from outside the app: a state reached, with no transition into it.
          current = abstract(Self.json(reader.currentState))
          if seenStates.contains(current) { exercisedStates.insert(current) }
        default:
          break
        }
      }
    }
  }

  /// The share of abstract states exercised, from 0 to 1.
  public var stateShare: Double {
    states.isEmpty ? 1 : Double(exercisedStates.count) / Double(states.count)
  }

  /// The share of abstract transitions exercised, from 0 to 1.
  public var transitionShare: Double {
    transitions.isEmpty ? 1 : Double(exercisedTransitions.count) / Double(transitions.count)
  }

  /// Indices (into ``transitions``) of the abstract transitions no trace makes, in order of
  /// discovery.
  public var missedTransitions: [Int] {
    transitions.indices.filter { !exercisedTransitions.contains(transitions[$0]) }
  }

  /// How many of ``observedOutside`` are credited to a stream: an element no action of the
  /// trace published (a scripted event, another screen or reactor), which exploration
  /// (sending only actions) never makes.
  public var streamTransitionCount: Int {
    observedOutside.count { $0.action.hasPrefix("stream ") }
  }

  /// How many of ``observedOutside`` are credited to an action: made while effects ran, or
  /// beyond the exploration's bounds.
  public var unexploredTransitionCount: Int {
    observedOutside.count - streamTransitionCount
  }

  /// The coverage as JSON, for CI, in the one shape `coverage --json` prints for a trace and
  /// for each reactor type of sessions: the shares and counts, and each transition never
  /// exercised with the shortest script that makes it.
  public var json: JSONValue {
    let missed = missedTransitions.map { index in
      let transition = transitions[index]
      let script = exploration.script(forTransition: firstTransition[index])
      return JSONValue.object(
        JSONObject([
          ("source", .string(transition.source)),
          ("target", .string(transition.target)),
          ("mutation", .string(transition.mutation)),
          ("action", .string(transition.action)),
          ("script", .array(script.steps.map { .string($0.action.label) })),
        ]))
    }
    func shares(_ exercised: Int, of reachable: Int, _ share: Double) -> JSONObject {
      JSONObject([
        ("reachable", .int(Int64(reachable))), ("exercised", .int(Int64(exercised))),
        ("share", .double(share)),
      ])
    }
    var transitionShares = shares(
      exercisedTransitions.count, of: transitions.count, transitionShare)
    transitionShares["outsideExploration"] = .int(Int64(unexploredTransitionCount))
    transitionShares["fromStreams"] = .int(Int64(streamTransitionCount))
    return .object(
      JSONObject([
        ("reactor", .string(exploration.reactor)),
        ("traces", .int(Int64(traceCount))),
        ("states", .object(shares(exercisedStates.count, of: states.count, stateShare))),
        ("transitions", .object(transitionShares)),
        ("stoppedBy", .string(exploration.stopReason.description)),
        ("missed", .array(missed)),
      ]))
  }

  private static func json(_ state: TraceHeader.State) -> JSONValue {
    switch state {
    case .json(let json): json
    case .description(let text): .string(text)
    }
  }
}
