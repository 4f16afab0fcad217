/// One event of a session as a structural replay shows it: the reactor it belongs to and the
/// step, as ``StructuralReplay`` describes the events of one reactor.
public struct SessionReplayStep: Sendable, Hashable {
  /// The reactor whose event it is, or `nil` for a gap and the end.
  public var reactor: Int?
  /// The event, described: for an introduction, `kind` is `reactor` and `label` the
  /// reactor's type; for a release, `release`.
  public var step: ReplayStep

  /// A step.
  public init(reactor: Int?, step: ReplayStep) {
    self.reactor = reactor
    self.step = step
  }
}

extension SessionReplayStep: CustomStringConvertible {
  /// `#12 [r3] mutation setTitle("milk") ← stream taskService from reactor 2, action 4`.
  public var description: String {
    "#\(step.sequence) " + (reactor.map { "[r\($0)] " } ?? "") + "\(step.kind) \(step.label)"
      + (step.cause.map { " ← \($0)" } ?? "")
  }
}
