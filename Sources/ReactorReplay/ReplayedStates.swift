public import ReactorTracing

/// The states of the reactors live after one event of a structural replay, as `replay
/// --state-at` prints them.
///
/// For a trace of one reactor, one line `state after event 3: {…}`; for a session, a line per
/// live reactor naming it, `state of reactor 2 'edit' (App.EditReactor) after event 3: {…}`.
public struct ReplayedStates: Sendable, Hashable {
  /// The event's `seq`; 0 for the initial states.
  public var sequence: Int
  /// Each live reactor's introduction and state, in the order of their ids.
  public var states: [Reactor]
  /// Whether the report names each reactor: the input is a session of many reactors.
  public var namesReactors: Bool

  /// One live reactor and its state.
  public struct Reactor: Sendable, Hashable {
    /// How the reactor was introduced.
    public var introduction: ReactorIntroduction
    /// Its state after the event.
    public var state: TraceHeader.State

    /// A live reactor.
    public init(introduction: ReactorIntroduction, state: TraceHeader.State) {
      self.introduction = introduction
      self.state = state
    }
  }

  /// The states after event `sequence`.
  public init(sequence: Int, states: [Reactor], namesReactors: Bool) {
    self.sequence = sequence
    self.states = states
    self.namesReactors = namesReactors
  }

  /// As JSON: `{"stateAt": N, "state": …}` (or `"stateDescription"`) for a trace of one
  /// reactor; `{"stateAt": N, "reactors": [{"reactor", "type", "name", "state"}]}` for a
  /// session.
  public var json: JSONValue {
    var object = JSONObject()
    object["stateAt"] = .int(Int64(sequence))
    func add(_ state: TraceHeader.State, to object: inout JSONObject) {
      switch state {
      case .json(let json): object["state"] = json
      case .description(let text): object["stateDescription"] = .string(text)
      }
    }
    guard namesReactors else {
      if let only = states.first { add(only.state, to: &object) }
      return .object(object)
    }
    object["reactors"] = .array(
      states.map { live in
        var reactor = JSONObject()
        reactor["reactor"] = .int(Int64(live.introduction.reactor))
        reactor["type"] = .string(live.introduction.type)
        reactor["name"] = live.introduction.name.map(JSONValue.string) ?? .null
        add(live.state, to: &reactor)
        return .object(reactor)
      })
    return .object(object)
  }
}

extension ReplayedStates: CustomStringConvertible {
  /// A line per live reactor (`no reactor is live after event N` when none is).
  public var description: String {
    func text(_ state: TraceHeader.State) -> String {
      switch state {
      case .json(let json): json.serializedString
      case .description(let text): text
      }
    }
    guard namesReactors else {
      return states.map { "state after event \(sequence): \(text($0.state))" }
        .joined(separator: "\n")
    }
    if states.isEmpty { return "no reactor is live after event \(sequence)" }
    return states.map { live in
      let name = live.introduction.name.map { " '\($0)'" } ?? ""
      return "state of reactor \(live.introduction.reactor)\(name) (\(live.introduction.type)) "
        + "after event \(sequence): \(text(live.state))"
    }.joined(separator: "\n")
  }
}
