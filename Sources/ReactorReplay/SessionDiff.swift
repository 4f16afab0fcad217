public import ReactorTracing

/// Where two sessions first differ: the event, the reactor it belongs to, and both sides.
///
/// Events are compared in order, each as its whole line (reactor, kind, label, value, cause
/// and `from`, state and hash), so any difference in any reactor's lane, in the order the
/// reactors interleave, or in a cause across reactors is found at its first event.
public enum SessionDiff {
  /// The first difference between `first` and `second`, or `nil` when they record the same
  /// events.
  /// - Parameters:
  ///   - first: A session.
  ///   - second: Another session.
  /// - Returns: The first difference.
  public static func firstDivergence(
    _ first: SessionTrace, _ second: SessionTrace
  ) -> SessionDivergence? {
    compare(first.events, second.events).divergence
  }

  /// The number of events that match, and the first difference.
  static func compare(
    _ recorded: [SessionEvent], _ replayed: [SessionEvent]
  ) -> (matched: Int, divergence: SessionDivergence?) {
    for index in 0..<max(recorded.count, replayed.count) {
      let old = index < recorded.count ? recorded[index] : nil
      let new = index < replayed.count ? replayed[index] : nil
      if let old, let new, old.serializedLine == new.serializedLine { continue }
      return (
        index,
        SessionDivergence(
          sequence: old?.sequence ?? new?.sequence ?? 0, reactor: old?.reactor ?? new?.reactor,
          recorded: old.map(SessionMutateReplay.describe),
          replayed: new.map(SessionMutateReplay.describe))
      )
    }
    return (recorded.count, nil)
  }
}
