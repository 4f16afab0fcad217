/// Where a ``SessionRecorder`` keeps what it records.
public enum SessionDestination: Hashable, Sendable {
  /// Every event in memory, for tests and short runs: ``SessionRecorder/session`` holds them.
  case memory
  /// A session trace file, written line by line on a thread of the recorder's own, within
  /// ``TraceOptions/queueBudget`` and with the crash promise of ``FileTraceRecorder``.
  case file(String)
  /// A flight recorder's window: the last events, bounded as the ``FlightWindow`` says, with
  /// every reactor alive before them as it was then. ``SessionRecorder/session`` is the
  /// window now.
  case window(FlightWindow)
}
