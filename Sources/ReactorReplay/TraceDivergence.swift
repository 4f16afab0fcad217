public import ReactorTracing

/// Where two traces (or sessions) first differ: the `seq`, both events, and how their states
/// differ.
public struct TraceDivergence: Sendable, Hashable {
  /// The `seq` where they differ; 0 when the headers already differ.
  public var sequence: Int
  /// In sessions, the reactor of the event there; `nil` in traces of one reactor, and for a
  /// gap and the end.
  public var reactor: Int?
  /// The first trace's event there; `nil` when it ended before, or for the introduction or
  /// release of a reactor in a session.
  public var first: TraceEvent?
  /// The second trace's event there; `nil` when it ended before.
  public var second: TraceEvent?
  /// What differs, in one line.
  public var reason: String
  /// A path-by-path diff of the states after the events (first → second), when they differ.
  public var stateDiff: String?

  /// A divergence.
  public init(
    sequence: Int, reactor: Int? = nil, first: TraceEvent?, second: TraceEvent?,
    reason: String, stateDiff: String?
  ) {
    self.sequence = sequence
    self.reactor = reactor
    self.first = first
    self.second = second
    self.reason = reason
    self.stateDiff = stateDiff
  }
}

extension TraceDivergence: CustomStringConvertible {
  /// A multi-line report: the `seq` and reason, then the state diff.
  public var description: String {
    var text =
      "the traces differ at event \(sequence)" + (reactor.map { " (reactor \($0))" } ?? "")
      + ": \(reason)"
    if let stateDiff { text += "\nstate (first → second):\n" + stateDiff }
    return text
  }
}
