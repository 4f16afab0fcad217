/// Where `reactor-trace serve` listens, where it keeps streams, and the token apps present.
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
  /// The largest batch an app may post at once.
  public var maximumBatchBytes: Int
  /// The most bytes a page's connection may have waiting to be sent before the server closes
  /// it (the page reconnects and gets the history again).
  public var maximumPageBacklogBytes: Int

  /// A configuration with each value defaulted but the directory.
  public init(
    host: String = "127.0.0.1", port: Int = 7878, directory: String, token: String? = nil,
    maximumBatchBytes: Int = 32 << 20, maximumPageBacklogBytes: Int = 64 << 20
  ) {
    self.host = host
    self.port = port
    self.directory = directory
    self.token = token
    self.maximumBatchBytes = maximumBatchBytes
    self.maximumPageBacklogBytes = maximumPageBacklogBytes
  }
}
