/// Where a session replayed through today's code first differs from the recorded one: the
/// event, the reactor, and both sides.
public struct SessionDivergence: Sendable, Hashable {
  /// The `seq` of the first event that differs.
  public var sequence: Int
  /// The reactor of the recorded event there (or of the replayed one, when the recording
  /// ended), `nil` for a gap or the end.
  public var reactor: Int?
  /// The recorded event, described; `nil` when the recording has no event there.
  public var recorded: String?
  /// The replayed event, described; `nil` when the replay has no event there.
  public var replayed: String?

  /// A divergence.
  public init(sequence: Int, reactor: Int?, recorded: String?, replayed: String?) {
    self.sequence = sequence
    self.reactor = reactor
    self.recorded = recorded
    self.replayed = replayed
  }
}

extension SessionDivergence: CustomStringConvertible {
  /// Two lines under a heading naming the event and the reactor.
  public var description: String {
    "the session diverges at event \(sequence)" + (reactor.map { " (reactor \($0))" } ?? "")
      + ":\n  recorded: " + (recorded ?? "nothing") + "\n  replayed: " + (replayed ?? "nothing")
  }
}
