/// How much a ``FlightRecorder`` keeps: the last events, of the last seconds, in at most so
/// many bytes, whichever bound is reached first.
public struct FlightWindow: Hashable, Sendable {
  /// The most events kept.
  public var events: Int
  /// How much older than the newest event the oldest kept one may be; `nil` for no bound.
  public var duration: Duration?
  /// The most bytes the kept events may take in memory, estimated as
  /// ``TraceOptions/queueBudget`` estimates queued events from the initial state's size.
  public var bytes: Int

  /// A window, each bound defaulted: the last 10,000 events, of the last 60 seconds, in at
  /// most 8 MiB.
  public init(events: Int = 10_000, duration: Duration? = .seconds(60), bytes: Int = 8 << 20) {
    self.events = events
    self.duration = duration
    self.bytes = bytes
  }
}
