import ReactorTracing

/// Where a ``LiveTraceRecorder`` streams to, and how much it holds while the server has not
/// acknowledged it.
public struct LiveOptions: Sendable {
  /// The server's host name or address, as `reactor-trace serve` printed it.
  public var host: String
  /// The server's port.
  public var port: Int
  /// The token `reactor-trace serve` printed: the server refuses a stream without it.
  public var token: String
  /// The stream's name on the server, unique per run.
  ///
  /// Letters, digits, `-` and `_`, at most 64 (see ``LiveProtocol/isValidStreamID(_:)``).
  /// A random one by default.
  public var streamID: String
  /// The most events held that the server has not acknowledged (10,000 by default).
  public var ringEvents: Int
  /// The most bytes of encoded lines held that the server has not acknowledged (8 MiB by
  /// default).
  public var ringBytes: Int
  /// The most bytes queued between the reactor and the encoding thread, in front of the ring
  /// (2 MiB by default); when both are full, events are dropped and a gap records how many.
  public var queueBudget: Int
  /// How often encoded events leave for the server at least (5 ms by default).
  public var sendInterval: Duration
  /// The first wait before connecting again after a failure; it doubles up to
  /// ``maximumReconnectDelay``.
  public var reconnectDelay: Duration
  /// The longest wait between two attempts to connect.
  public var maximumReconnectDelay: Duration
  /// How long a connection attempt, and each read and write, may take.
  public var timeout: Duration
  /// How long `stop()` goes on trying to deliver what the server has not acknowledged.
  public var drainTimeout: Duration
  /// Whether the app takes commands from the live page and `reactor-trace send`.
  ///
  /// Dispatch an action, send a recorded action again: ``LiveControl/refuse`` by default. A
  /// debug-build setting: ``LiveControl/accept`` lets whoever holds the server's token drive
  /// the app.
  public var control: LiveControl
  /// With ``LiveControl/accept``, how often an app with nothing to send asks the server for
  /// commands at least (25 ms by default): commands arrive in the answers to its batches.
  public var commandPollInterval: Duration

  /// Options for the server at `host:port` with `token`, each other one defaulted.
  public init(
    host: String = "127.0.0.1", port: Int, token: String,
    streamID: String = LiveOptions.randomStreamID(),
    ringEvents: Int = 10_000, ringBytes: Int = 8 << 20, queueBudget: Int = 2 << 20,
    sendInterval: Duration = .milliseconds(5), reconnectDelay: Duration = .milliseconds(50),
    maximumReconnectDelay: Duration = .seconds(1), timeout: Duration = .seconds(5),
    drainTimeout: Duration = .seconds(5), control: LiveControl = .refuse,
    commandPollInterval: Duration = .milliseconds(25)
  ) {
    self.host = host
    self.port = port
    self.token = token
    self.streamID = streamID
    self.ringEvents = ringEvents
    self.ringBytes = ringBytes
    self.queueBudget = queueBudget
    self.sendInterval = sendInterval
    self.reconnectDelay = reconnectDelay
    self.maximumReconnectDelay = maximumReconnectDelay
    self.timeout = timeout
    self.drainTimeout = drainTimeout
    self.control = control
    self.commandPollInterval = commandPollInterval
  }

  /// Checks the stream's name, the ring's bounds and the port.
  /// - Throws: ``ReactorTracing/TraceRecordingError/invalidOption(_:)`` naming the first one
  ///   that is invalid.
  func validate() throws(TraceRecordingError) {
    guard LiveProtocol.isValidStreamID(streamID) else {
      throw .invalidOption(
        "a live stream's name is 1 to 64 letters, digits, '-' or '_', not '\(streamID)'")
    }
    guard ringEvents >= 1, ringBytes >= 1 else {
      throw .invalidOption("a live ring must hold at least 1 event and 1 byte")
    }
    guard (1...65_535).contains(port) else {
      throw .invalidOption("a live server's port is 1 to 65535, not \(port)")
    }
  }

  /// 32 random hexadecimal digits.
  public static func randomStreamID() -> String {
    var generator = SystemRandomNumberGenerator()
    let high = generator.next() as UInt64
    let low = generator.next() as UInt64
    return hex(high) + hex(low)
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
