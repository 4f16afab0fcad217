public import ReactorTracing

extension Exploration {
  /// The exploration as JSON, for tools: the alphabet, the states (`s0`, `s1`, … with their
  /// values, depths and whether a run rests in them), the transitions, the broken invariants
  /// and what stopped it.
  ///
  /// ```json
  /// {"reactor": "…", "stoppedBy": "fixedPoint", "states": [{"id": "s0", …}], …}
  /// ```
  public var json: JSONValue {
    let stop: JSONValue =
      switch stopReason {
      case .fixedPoint: .object(JSONObject([("kind", "fixedPoint")]))
      case .depth(let depth): .object(JSONObject([("kind", "depth"), ("bound", .int(Int64(depth)))]))
      case .states(let count):
        .object(JSONObject([("kind", "states"), ("bound", .int(Int64(count)))]))
      case .time(let limit):
        .object(
          JSONObject([("kind", "time"), ("seconds", .double(limit / .seconds(1)))]))
      }
    let states = states.enumerated().map { index, state in
      JSONValue.object(
        JSONObject([
          ("id", .string("s\(index)")), ("value", state.value),
          ("depth", .int(Int64(state.depth))), ("resting", .bool(state.isSettled)),
        ]))
    }
    let transitions = transitions.map { transition in
      JSONValue.object(
        JSONObject([
          ("source", .string("s\(transition.source)")),
          ("target", .string("s\(transition.target)")),
          ("mutation", .string(transition.mutation)),
          ("action", .string(alphabet[transition.action].label)),
        ]))
    }
    let violations = violations.map { violation in
      JSONValue.object(
        JSONObject([
          ("invariant", .string(violation.invariant)),
          ("state", .string("s\(violation.state)")),
          ("script", .string(script(to: violation.state).summary)),
        ]))
    }
    return .object(
      JSONObject([
        ("reactor", .string(reactor)),
        ("identity", .array(identity.keys.map { .string($0) })),
        ("stoppedBy", stop),
        ("runs", .int(Int64(runCount))),
        ("unsettledRuns", .int(Int64(unsettledRunCount))),
        ("alphabet", .array(alphabet.map { .string($0.label) })),
        ("states", .array(states)),
        ("transitions", .array(transitions)),
        ("invariants", .array(invariants.map { .string($0) })),
        ("violations", .array(violations)),
      ]))
  }
}
