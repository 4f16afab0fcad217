/// Where a replay first differed from the trace, and how.
///
/// ```text
/// event 4 (line 5): mutation increaseValue (from action increase)
/// the replayed state differs from the recorded one:
///   State(
/// -   value: 1,
/// +   value: 2,
///     …
///   )
/// ```
public struct ReplayDivergence: Sendable, Hashable {
  /// The `seq` of the event where the replay differed.
  public var sequence: Int
  /// The event's line in the trace file, when it came from one.
  public var line: Int?
  /// The label of the recorded mutation, if the event is one.
  public var mutation: String?
  /// The label of the action behind it, if known.
  public var action: String?
  /// What differed, in one line.
  public var reason: String
  /// A readable diff of the recorded (`-`) and replayed (`+`) states or values, if any.
  public var diff: String?

  /// A divergence.
  public init(
    sequence: Int, line: Int?, mutation: String?, action: String?, reason: String,
    diff: String?
  ) {
    self.sequence = sequence
    self.line = line
    self.mutation = mutation
    self.action = action
    self.reason = reason
    self.diff = diff
  }
}

extension ReplayDivergence: CustomStringConvertible {
  /// A multi-line report: the step, the mutation and its action, the reason and the diff.
  public var description: String {
    var heading = "event \(sequence)"
    if let line { heading += " (line \(line))" }
    if let mutation {
      heading += ": mutation \(mutation)"
      if let action { heading += " (from action \(action))" }
    } else if let action {
      heading += ": action \(action)"
    }
    var lines = [heading, reason]
    if let diff { lines.append(diff) }
    return lines.joined(separator: "\n")
  }
}
