public import ReactorTracing

/// One event of a trace or a session as a structural replay shows it: what happened, why,
/// and for a mutation what it changed in the state.
public struct ReplayStep: Sendable, Hashable {
  /// In a session of many reactors, the reactor whose event it is; `nil` in a trace of one
  /// reactor, and for a gap and the end.
  public var reactor: Int?
  /// The event's `seq`.
  public var sequence: Int
  /// The event's line in the trace.
  public var line: Int
  /// The time since the recording began.
  public var time: Duration
  /// The event's kind as the trace names it: `action`, `effectStart`, `effectEnd`,
  /// `mutation`, `streamEnd`, `gap` or `end`; in a session also `reactor` (an introduction,
  /// its label the reactor's type) and `release`.
  public var kind: String
  /// What happened, in a few words: the action's or mutation's label, the effect's name, how
  /// an effect or stream ended.
  public var label: String
  /// What caused it: `sent`, `stream taps`, `action 1 (increase)`,
  /// `effect 1 of action 1 (increase)`; `nil` when nothing did.
  public var cause: String?
  /// For a mutation whose state is JSON, the paths it changed with the values before and
  /// after; empty otherwise.
  public var changes: [Change]

  /// A step.
  public init(
    reactor: Int? = nil, sequence: Int, line: Int, time: Duration, kind: String, label: String,
    cause: String?, changes: [Change]
  ) {
    self.reactor = reactor
    self.sequence = sequence
    self.line = line
    self.time = time
    self.kind = kind
    self.label = label
    self.cause = cause
    self.changes = changes
  }

  /// A value a mutation changed.
  public struct Change: Sendable, Hashable {
    /// Where in the state.
    public var path: [JSONPathComponent]
    /// The value before; `nil` when the path did not exist.
    public var before: JSONValue?
    /// The value after; `nil` when the path was removed.
    public var after: JSONValue?

    /// A change.
    public init(path: [JSONPathComponent], before: JSONValue?, after: JSONValue?) {
      self.path = path
      self.before = before
      self.after = after
    }
  }
}

extension ReplayStep {
  /// The step as JSON, for `--json` output: `seq`, `line`, `t` (nanoseconds), `kind`,
  /// `label`, `cause` when there is one, `reactor` in a session, and for mutations `changes`,
  /// each with `path` (dotted), `before` and `after` (absent when there is no value).
  public var json: JSONValue {
    var object = JSONObject()
    if let reactor { object["reactor"] = .int(Int64(reactor)) }
    object["seq"] = .int(Int64(sequence))
    object["line"] = .int(Int64(line))
    object["t"] = .int(time.traceNanoseconds)
    object["kind"] = .string(kind)
    object["label"] = .string(label)
    if let cause { object["cause"] = .string(cause) }
    if kind == "mutation" {
      object["changes"] = .array(
        changes.map { change in
          var member = JSONObject()
          member["path"] = .string(change.path.dottedDescription)
          if let before = change.before { member["before"] = before }
          if let after = change.after { member["after"] = after }
          return .object(member)
        })
    }
    return .object(object)
  }
}

extension ReplayStep: CustomStringConvertible {
  /// One line, then one indented line per change:
  /// `#4 0.5 seconds mutation increaseValue ← effect 1 of action 1 (increase)`; in a session
  /// the reactor follows the `seq`: `#12 [r3] 0.5 seconds mutation setTitle("milk") ← …`.
  public var description: String {
    var text = "#\(sequence) " + (reactor.map { "[r\($0)] " } ?? "") + "\(time) \(kind) \(label)"
    if let cause { text += " ← \(cause)" }
    for change in changes {
      text += "\n  \(change.path.dottedDescription): \(StateComparison.text(change.before))"
      text += " → \(StateComparison.text(change.after))"
    }
    return text
  }
}
