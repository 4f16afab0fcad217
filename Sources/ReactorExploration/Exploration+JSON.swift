import ReactorStateMachines
public import ReactorTracing

extension Exploration {
  /// The exploration as JSON, for tools and for `coverage --exploration`: the alphabet, the
  /// states (`s0`, `s1`, … with their values, depths, whether a run rests in them and how
  /// they were reached), the transitions, the invariants and what stopped it.
  ///
  /// ```json
  /// {"reactor": "…", "stoppedBy": {"kind": "fixedPoint"}, "states": [{"id": "s0", …}], …}
  /// ```
  public var json: JSONValue {
    let stop: JSONValue =
      switch stopReason {
      case .fixedPoint: ["kind": "fixedPoint"]
      case .depth(let depth): ["kind": "depth", "bound": .int(Int64(depth))]
      case .states(let count): ["kind": "states", "bound": .int(Int64(count))]
      case .time(let limit): ["kind": "time", "seconds": .double(limit / .seconds(1))]
      }
    func step(_ step: Step?) -> JSONValue {
      guard let step else { return .null }
      return ["state": .string("s\(step.source)"), "action": .int(Int64(step.action))]
    }
    let states = states.enumerated().map { index, state -> JSONValue in
      [
        "id": .string("s\(index)"), "value": state.value, "depth": .int(Int64(state.depth)),
        "resting": .bool(state.isSettled), "reachedBy": step(state.reachedBy),
        "settledBy": step(state.settledBy),
        "settledAt": state.settledAt.map { .int(Int64($0 / .nanoseconds(1))) } ?? .null,
      ]
    }
    let transitions = transitions.map { transition -> JSONValue in
      [
        "source": .string("s\(transition.source)"), "target": .string("s\(transition.target)"),
        "mutation": .string(transition.mutation), "action": .int(Int64(transition.action)),
        "firstSeen": step(transition.firstSeen),
      ]
    }
    let violations = violations.map { violation -> JSONValue in
      [
        "invariant": .string(violation.invariant), "state": .string("s\(violation.state)"),
        "script": .string(script(to: violation.state).summary),
      ]
    }
    return [
      "reactor": .string(reactor),
      "identity": .array(identity.keys.map { .string($0.description) }),
      "stoppedBy": stop,
      "runs": .int(Int64(runCount)),
      "unsettledRuns": .int(Int64(unsettledRunCount)),
      "alphabet": .array(alphabet.map { ["label": .string($0.label), "value": $0.value] }),
      "states": .array(states),
      "transitions": .array(transitions),
      "invariants": .array(invariants.map { .string($0) }),
      "violations": .array(violations),
    ]
  }

  /// Reads an exploration back from its ``json``.
  /// - Parameter json: What ``json`` gave.
  /// - Throws: ``ExplorationError/malformedExploration(_:)`` naming what is missing or wrong.
  public init(json: JSONValue) throws(ExplorationError) {
    let reader = ExplorationJSONReader()
    reactor = try reader.string(json["reactor"], "reactor")
    identity = StateIdentity(
      keys: try reader.array(json["identity"], "identity").map { key throws(ExplorationError) in
        let text = try reader.string(key, "identity")
        do throws(StatePathError) {
          return try StatePath(parsing: text)
        } catch {
          throw .malformedExploration("identity: \(error)")
        }
      })
    let stop = json["stoppedBy"]
    switch stop?["kind"]?.stringValue {
    case "fixedPoint": stopReason = .fixedPoint
    case "depth": stopReason = .depth(try reader.integer(stop?["bound"], "stoppedBy.bound"))
    case "states": stopReason = .states(try reader.integer(stop?["bound"], "stoppedBy.bound"))
    case "time":
      guard case .double(let seconds)? = stop?["seconds"], seconds >= 0, seconds.isFinite else {
        throw .malformedExploration("stoppedBy.seconds is not a number of seconds")
      }
      stopReason = .time(.nanoseconds(Int64(seconds * 1e9)))
    default:
      throw .malformedExploration("stoppedBy.kind is not fixedPoint, depth, states or time")
    }
    runCount = try reader.integer(json["runs"], "runs")
    unsettledRunCount = try reader.integer(json["unsettledRuns"], "unsettledRuns")
    let alphabet = try reader.array(json["alphabet"], "alphabet").map {
      action throws(ExplorationError) in
      Action(
        label: try reader.string(action["label"], "alphabet.label"),
        value: action["value"] ?? .null)
    }
    self.alphabet = alphabet
    let stateValues = try reader.array(json["states"], "states")
    var states: [State] = []
    for value in stateValues {
      let settledAt: Duration? =
        switch value["settledAt"] {
        case nil, .null?: nil
        default: .nanoseconds(try reader.integer(value["settledAt"], "states.settledAt"))
        }
      states.append(
        State(
          value: value["value"] ?? .null,
          depth: try reader.integer(value["depth"], "states.depth"),
          reachedBy: try reader.step(
            value["reachedBy"], states: stateValues.count, actions: alphabet.count),
          settledBy: try reader.step(
            value["settledBy"], states: stateValues.count, actions: alphabet.count),
          settledAt: settledAt, isSettled: value["resting"]?.boolValue ?? false))
    }
    self.states = states
    let count = states.count
    transitions = try reader.array(json["transitions"], "transitions").map {
      transition throws(ExplorationError) in
      let action = try reader.integer(transition["action"], "transitions.action")
      guard action < alphabet.count,
        let firstSeen = try reader.step(
          transition["firstSeen"], states: count, actions: alphabet.count)
      else { throw .malformedExploration("a transition names no action of the alphabet") }
      return Transition(
        source: try reader.state(transition["source"], count: count),
        target: try reader.state(transition["target"], count: count),
        mutation: try reader.string(transition["mutation"], "transitions.mutation"),
        action: action, firstSeen: firstSeen)
    }
    invariants = try reader.array(json["invariants"], "invariants").map {
      name throws(ExplorationError) in try reader.string(name, "invariants")
    }
    violations = try reader.array(json["violations"], "violations").map {
      violation throws(ExplorationError) in
      Violation(
        invariant: try reader.string(violation["invariant"], "violations.invariant"),
        state: try reader.state(violation["state"], count: count))
    }
  }
}

/// Reads the members of an exploration's JSON, range-checking every index.
private struct ExplorationJSONReader {
  func string(_ value: JSONValue?, _ name: String) throws(ExplorationError) -> String {
    guard let text = value?.stringValue else {
      throw .malformedExploration("\(name) is not a string")
    }
    return text
  }

  func integer(_ value: JSONValue?, _ name: String) throws(ExplorationError) -> Int {
    guard let number = value?.intValue, number >= 0 else {
      throw .malformedExploration("\(name) is not a non-negative integer")
    }
    return number
  }

  func array(_ value: JSONValue?, _ name: String) throws(ExplorationError) -> [JSONValue] {
    guard let elements = value?.arrayValue else {
      throw .malformedExploration("\(name) is not an array")
    }
    return elements
  }

  /// A state id, `s3`, below `count`.
  func state(_ value: JSONValue?, count: Int) throws(ExplorationError) -> Int {
    guard let id = value?.stringValue, id.first == "s", let index = Int(id.dropFirst()),
      index >= 0, index < count
    else {
      throw .malformedExploration(
        "\(value?.serializedString ?? "a missing value") is not a state id s0…s\(count - 1)")
    }
    return index
  }

  func step(
    _ value: JSONValue?, states: Int, actions: Int
  ) throws(ExplorationError) -> Exploration.Step? {
    guard let value, value != .null else { return nil }
    let action = try integer(value["action"], "step.action")
    guard action < actions else {
      throw .malformedExploration("step.action \(action) is out of range")
    }
    return Exploration.Step(source: try state(value["state"], count: states), action: action)
  }
}
