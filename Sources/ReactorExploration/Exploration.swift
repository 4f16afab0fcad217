public import ReactorStateMachines
public import ReactorTracing

/// What an exploration found: the states a reactor reaches from its initial state, the
/// transitions between them, and the shortest script to each.
///
/// States are in order of discovery, which is breadth first: no state comes before one that
/// needs fewer actions, so the first state matching a condition is one of the nearest.
/// Transitions are mutations, as in a trace: from the state before `reduce` to the state
/// after, labelled with the mutation and the action behind it.
public struct Exploration: Sendable {
  /// An action of the alphabet.
  public struct Action: Sendable, Hashable {
    /// The action's label, as traces write it: `increase`, `updateQuery("swift")`.
    public var label: String
    /// The action's Codable encoding, as scripts and traces write it.
    public var value: JSONValue

    /// An action.
    public init(label: String, value: JSONValue) {
      self.label = label
      self.value = value
    }
  }

  /// A step of a path: an action sent in a state some run rested in.
  public struct Step: Sendable, Hashable {
    /// The index of the state the action was sent in.
    public var source: Int
    /// The index of the action in ``Exploration/alphabet``.
    public var action: Int
  }

  /// A state reached.
  public struct State: Sendable, Hashable {
    /// The state as its identity sees it (see ``StateIdentity``).
    public var value: JSONValue
    /// The fewest actions that lead through this state.
    public var depth: Int
    /// How the state was first reached: the action whose effects passed through it, sent in
    /// a resting state; `nil` for the initial state.
    public var reachedBy: Step?
    /// How a run first came to rest in this state, once one did; `nil` for the initial
    /// state and for states only passed through.
    public var settledBy: Step?
    /// The virtual time at which that run came to rest.
    public var settledAt: Duration?
    /// Whether some run came to rest in this state: only such states are explored further.
    public var isSettled: Bool
  }

  /// A transition: one mutation from one state to another.
  public struct Transition: Sendable, Hashable {
    /// The index of the state before the mutation.
    public var source: Int
    /// The index of the state after it.
    public var target: Int
    /// The mutation's label.
    public var mutation: String
    /// The index in ``Exploration/alphabet`` of the action behind it.
    public var action: Int
    /// The run that first made it: an action sent in a resting state.
    public var firstSeen: Step
  }

  /// An invariant that some reachable state breaks.
  public struct Violation: Sendable, Hashable {
    /// The invariant's name.
    public var invariant: String
    /// The index of the nearest state that breaks it.
    public var state: Int
  }

  /// What stopped the exploration.
  public enum StopReason: Sendable, Hashable, CustomStringConvertible {
    /// Every reachable state was explored.
    case fixedPoint
    /// States at this many actions from the start were not explored further.
    case depth(Int)
    /// This many states were collected.
    case states(Int)
    /// The time bound passed.
    case time(Duration)

    /// Which bound, in words: `depth bound 6`.
    public var description: String {
      switch self {
      case .fixedPoint: "fixed point (every reachable state explored)"
      case .depth(let depth): "depth bound \(depth) (states \(depth) actions away not expanded)"
      case .states(let count): "state bound \(count)"
      case .time(let duration): "time bound \(duration)"
      }
    }
  }

  /// The explored reactor's type name.
  public var reactor: String
  /// The actions tried in every resting state.
  public var alphabet: [Action]
  /// What made two states the same.
  public var identity: StateIdentity
  /// The states, breadth first; the initial state is the first.
  public var states: [State]
  /// The transitions, in order of discovery.
  public var transitions: [Transition]
  /// The names of the invariants checked in every state reached.
  public var invariants: [String]
  /// The invariants broken, each with the nearest state that breaks it.
  public var violations: [Violation]
  /// What stopped the exploration.
  public var stopReason: StopReason
  /// How many times an action was sent to a resting state: the runs explored.
  public var runCount: Int
  /// How many of those runs still had effects running when the settle limit passed.
  public var unsettledRunCount: Int

  /// The shortest script that leads through the state at `index`.
  /// - Parameter index: A state's index.
  /// - Returns: The steps, each with the time to send its action.
  public func script(to index: Int) -> ExplorationScript {
    guard let step = states[index].reachedBy else {
      return ExplorationScript(steps: [])
    }
    return script(then: step)
  }

  /// The shortest script known to make the transition at `index`.
  public func script(forTransition index: Int) -> ExplorationScript {
    script(then: transitions[index].firstSeen)
  }

  /// The script that rests in `step.source` and then sends `step.action`.
  func script(then step: Step) -> ExplorationScript {
    var steps: [ExplorationScript.Step] = []
    var current = step
    while true {
      let source = states[current.source]
      steps.append(
        ExplorationScript.Step(
          time: source.settledAt ?? .zero, action: alphabet[current.action]))
      guard let previous = source.settledBy else { break }
      current = previous
    }
    return ExplorationScript(steps: steps.reversed())
  }

  /// The index of a nearest state matching `condition`, or `nil` when none was reached.
  public func firstState(matching condition: StateCondition) -> Int? {
    states.indices.first { condition.matches(states[$0].value) }
  }
}
