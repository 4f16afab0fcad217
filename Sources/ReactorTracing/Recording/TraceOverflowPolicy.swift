/// What a file recorder does when the events queued for its writer would take more than
/// ``TraceOptions/queueBudget`` bytes: the writer has fallen behind the reactor.
public enum TraceOverflowPolicy: Hashable, Sendable {
  /// The reactor waits until the writer has made room: no event is lost and the trace is the
  /// same for the same run, but a reactor producing events faster than the writer writes
  /// them is slowed to the writer's pace. The default, and what `reactor-trace record` uses.
  case wait
  /// The reactor never waits: events that do not fit are dropped, and the trace records
  /// where and how many with a ``TraceEvent/Gap`` (format version 1.2). For a recorder left
  /// on in production, where the app must never stall.
  case drop
}
