import ReactorStateMachines
public import ReactorTracing

extension FleetComparison {
  /// The comparison as one JSON object (`compare --json`; docs/fleet.md gives its shape):
  /// the sides, the family, the significant changes ranked and the one-sided transitions,
  /// each change flat, naming its reactor.
  public var json: JSONValue {
    func side(_ label: String, _ count: (Reactor) -> Int) -> JSONValue {
      .object(
        JSONObject([
          ("label", .string(label)),
          ("transitions", .int(Int64(reactors.reduce(0) { $0 + count($1) }))),
        ]))
    }
    return .object(
      JSONObject([
        ("alpha", .double(alpha)),
        ("before", side(beforeLabel, \.beforeCount)),
        ("after", side(afterLabel, \.afterCount)),
        ("tests", .int(Int64(testCount))),
        ("family", .int(Int64(familyCount))),
        ("changed", .bool(hasChanges)),
        ("changes", .array(changes.map(Self.json))),
        ("oneSided", .array(reactors.flatMap(\.oneSided).map(Self.json))),
        (
          "reactors",
          .array(
            reactors.map { reactor in
              .object(
                JSONObject([
                  ("reactor", .string(reactor.name)), ("abstraction", .string(reactor.abstraction)),
                  ("before", .int(Int64(reactor.beforeCount))),
                  ("after", .int(Int64(reactor.afterCount))),
                ]))
            })
        ),
        ("onlyBefore", .array(onlyBefore.map(JSONValue.string))),
        ("onlyAfter", .array(onlyAfter.map(JSONValue.string))),
      ]))
  }

  /// One change's object.
  static func json(_ change: TransitionChange) -> JSONValue {
    func share(_ share: TransitionChange.Share) -> JSONValue {
      .object(
        JSONObject([("count", .int(Int64(share.count))), ("total", .int(Int64(share.total)))]))
    }
    func number(_ value: Double?) -> JSONValue {
      guard let value, value.isFinite else { return .null }
      return .double(value)
    }
    let transition = change.transition
    return .object(
      JSONObject([
        ("reactor", .string(change.reactor)),
        ("kind", .string(change.kind.rawValue)),
        ("from", .string(transition.source)),
        ("action", .string(transition.action)),
        ("mutation", .string(transition.mutation)),
        ("to", .string(transition.target)),
        ("outcome", change.outcome.map(JSONValue.string) ?? .null),
        ("before", share(change.before)),
        ("after", share(change.after)),
        ("ratio", number(change.ratio)),
        ("p", number(change.pValue)),
        ("q", number(change.qValue)),
        ("test", change.pValue == nil ? .null : .string(change.isExact ? "fisher" : "z")),
        ("significant", .bool(change.isSignificant)),
        (
          "through",
          change.through.map { through in
            .object(
              JSONObject([
                ("from", .string(through.source)), ("action", .string(through.action)),
                ("mutation", .string(through.mutation)), ("to", .string(through.target)),
              ]))
          } ?? .null
        ),
      ]))
  }
}
