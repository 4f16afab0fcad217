/// What a ``LiveTraceRecorder``'s stream has done so far.
public struct LiveStatus: Sendable, Hashable {
  /// The last sequence number the server acknowledged: every event up to it is on its disk.
  public var acknowledgedSequence: Int
  /// Events encoded and held because the server has not acknowledged them yet.
  public var heldEvents: Int
  /// The bytes of those events' lines.
  public var heldBytes: Int
  /// Events the stream gave up on.
  ///
  /// They were held when it stopped without reaching the server, or the server lost them
  /// when the app no longer held them. Events dropped because the ring was full are not
  /// counted here: the trace records them as gaps.
  public var lostEvents: Int
  /// How many times it connected to the server.
  public var connections: Int
  /// Why the last attempt to send failed, while it has not succeeded since.
  public var lastFailure: String?
}
