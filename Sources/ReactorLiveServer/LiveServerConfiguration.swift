/// Where `reactor-trace serve` listens, where it keeps streams, the token apps present, and
/// the limits that keep a client from taking the server's memory, descriptors or time.
public struct LiveServerConfiguration: Sendable {
  /// The address to listen on: `127.0.0.1` (loopback only) by default; `0.0.0.0` or a
  /// network address accepts devices on the network.
  public var host: String
  /// The port; 0 picks a free one (the endpoint ``LiveServer/run(ready:)`` reports says
  /// which).
  public var port: Int
  /// The directory each stream is kept in, as `ID.trace.jsonl`; created if missing.
  ///
  /// A server started again on the same directory resumes its streams.
  public var directory: String
  /// The token apps and pages present; `nil` reuses the one kept in the directory's
  /// `token` file, or makes a new random one and keeps it there.
  public var token: String?
  /// The largest batch an app may post at once, counted or chunked (larger: 413).
  public var maximumBatchBytes: Int
  /// The most bytes of control messages (the list of streams, notices) that may wait for a
  /// page beside the one piece of lines it is sent; past it the page is dropped (it
  /// reconnects and gets the history again).
  public var maximumPageBacklogBytes: Int
  /// The longest request line or header line (longer: 414 or 431, and the connection closes).
  public var maximumLineBytes: Int
  /// The largest request head, its line and headers together (larger: 431).
  public var maximumHeadBytes: Int
  /// How long a connection may take to send a whole request (head and body), from its
  /// opening or the previous response; later, it is closed.
  public var requestDeadline: Duration
  /// How long one message to a page may wait for the page to read; longer, the page is
  /// dropped.
  public var pageWriteDeadline: Duration
  /// The most connections open at once (the server lowers it to its descriptor limit less a
  /// reserve); more are answered 503 and closed.
  public var maximumConnections: Int
  /// The most connections open at once that have not presented the token (the page itself is
  /// fetched without it); more are answered 503 and closed.
  public var maximumConnectionsWithoutToken: Int
  /// How many wrong tokens are answered per second, over all clients, after a burst of as
  /// many: the others wait for their turn.
  public var wrongTokensPerSecond: Int

  /// A configuration with each value defaulted but the directory.
  public init(
    host: String = "127.0.0.1", port: Int = 7878, directory: String, token: String? = nil,
    maximumBatchBytes: Int = 32 << 20, maximumPageBacklogBytes: Int = 1 << 20
  ) {
    self.host = host
    self.port = port
    self.directory = directory
    self.token = token
    self.maximumBatchBytes = maximumBatchBytes
    self.maximumPageBacklogBytes = maximumPageBacklogBytes
    maximumLineBytes = 8 << 10
    maximumHeadBytes = 32 << 10
    requestDeadline = .seconds(30)
    pageWriteDeadline = .seconds(30)
    maximumConnections = 512
    maximumConnectionsWithoutToken = 64
    wrongTokensPerSecond = 10
  }
}
