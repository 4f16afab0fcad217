import FlyingSocks
import Foundation
import ReactorLiveRecording

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `reactor-trace serve`: takes apps' live streams, keeps each on disk as a trace file, and
/// serves the live page that shows them as they arrive.
///
/// ```swift
/// let server = try LiveServer(
///   configuration: LiveServerConfiguration(directory: "live-traces"), log: { print($0) })
/// try await server.run { endpoint in print("open \(endpoint.pageURL)") }
/// ```
///
/// It listens on loopback unless told otherwise. Apps post batches with the token
/// (``LiveProtocol``); the page and its WebSocket are served only to a `Host` that is an
/// address of this server (not a name, which DNS rebinding could point here), the socket
/// only to the page's own `Origin`, and both only with the token (a header or the socket's
/// subprotocol, never the request line). Every refusal is one log line naming the client and
/// the reason, its client-supplied text escaped; nothing about the streams is in a refusal.
/// Requests are read within the configuration's limits (line and head lengths, a deadline,
/// caps on connections), wrong tokens are answered at a bounded rate, and a page is sent
/// its stream at its own pace.
public final class LiveServer: Sendable {
  /// The configuration it was made with, its token settled and its connection cap lowered
  /// to what the descriptor limit allows.
  public let configuration: LiveServerConfiguration
  private let token: String
  private let store: LiveStreamStore
  private let log: @Sendable (String) -> Void

  /// Descriptors kept for the server's own use (stream files, the token, Graphviz, the
  /// event loop) when the connection cap is set from the descriptor limit.
  private static var reservedDescriptors: Int { 64 }

  /// Prepares a server: creates the directory, settles the token, raises the soft
  /// descriptor limit to the hard one, and opens the streams an earlier run kept there (a
  /// file holding no stream is passed over with a log line).
  /// - Parameters:
  ///   - configuration: Where to listen and keep streams, and the limits.
  ///   - log: Where each log line goes (one line per call, no newline, no control character).
  /// - Throws: ``LiveServerError`` for an unusable directory, token, token file or address.
  public init(
    configuration: LiveServerConfiguration, log: @escaping @Sendable (String) -> Void
  ) async throws(LiveServerError) {
    guard (0...65_535).contains(configuration.port) else {
      throw .invalidPort(configuration.port)
    }
    guard AccessPolicy.loopback(ofAddress: configuration.host) != nil else {
      throw .invalidHost(configuration.host)
    }
    let directory = configuration.directory
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw .unusableDirectory(path: directory, reason: error.localizedDescription)
    }
    if let given = configuration.token {
      guard TokenFile.isValid(given) else { throw .invalidToken(given) }
      token = given
    } else {
      token = try TokenFile.settle(in: directory)
    }
    // A write past a file-size limit fails with EFBIG (and is cut back) instead of killing
    // the process; a write to a closed socket fails instead of killing it.
    signal(SIGXFSZ, SIG_IGN)
    signal(SIGPIPE, SIG_IGN)
    var settled = configuration
    settled.maximumConnections = max(
      1,
      min(configuration.maximumConnections, Self.raiseDescriptorLimit() - Self.reservedDescriptors))
    self.configuration = settled
    let escaping: @Sendable (String) -> Void = { line in log(LogText.line(line)) }
    self.log = escaping
    store = LiveStreamStore(
      directory: directory, pageBudget: configuration.maximumPageBacklogBytes, log: escaping)
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory)
    } catch {
      throw .unusableDirectory(path: directory, reason: error.localizedDescription)
    }
    let kept = names.sorted().compactMap { name -> (id: String, path: String)? in
      guard name.hasSuffix(".trace.jsonl") else { return nil }
      let id = String(name.dropLast(".trace.jsonl".count))
      guard LiveProtocol.isValidStreamID(id) else { return nil }
      return (id, directory + "/" + name)
    }
    await store.resume(kept)
  }

  /// The token in the first line of file `path` (`--token-file`): kept out of the process's
  /// arguments, where other users could read it.
  /// - Throws: ``LiveServerError/unsafeTokenFile(path:reason:)`` when the file is not a
  ///   regular file of this user's that only this user can read,
  ///   ``LiveServerError/invalidToken(_:)`` when it holds no token.
  public static func token(fromFile path: String) throws(LiveServerError) -> String {
    try TokenFile.read(path)
  }

  /// Listens until the task is cancelled.
  /// - Parameter ready: Called once, when the server listens, with where to reach it.
  /// - Throws: ``LiveServerError/cannotListen(address:reason:)`` when it cannot listen (at
  ///   once when the address is in use).
  public func run(ready: @escaping @Sendable (LiveServerEndpoint) -> Void) async throws {
    let host = configuration.host
    let shownAddress =
      host.contains(":") ? "[\(host)]:\(configuration.port)" : "\(host):\(configuration.port)"
    let address: any SocketAddress
    do {
      if host.contains(":") {
        address = try sockaddr_in6.inet6(ip6: host, port: UInt16(configuration.port))
      } else {
        address = try sockaddr_in.inet(ip4: host, port: UInt16(configuration.port))
      }
    } catch {
      throw LiveServerError.invalidHost(host)
    }
    let (socket, port) = try LiveListener.bind(address, shown: shownAddress)
    let isLoopback = AccessPolicy.loopback(ofAddress: host) ?? false
    let table = ConnectionTable(
      maximumConnections: configuration.maximumConnections,
      maximumConnectionsWithoutToken: configuration.maximumConnectionsWithoutToken)
    let handler = LiveRequestHandler(
      store: store, policy: AccessPolicy(token: token, port: port, acceptsNetwork: !isLoopback),
      table: table,
      throttle: WrongTokenThrottle(
        perSecond: configuration.wrongTokensPerSecond, burst: configuration.wrongTokensPerSecond),
      desk: CommandDesk(), log: log)
    let listener = LiveListener(
      socket: socket, port: port, configuration: configuration, table: table, handler: handler,
      store: store, log: log)
    let shown = host == "0.0.0.0" ? "127.0.0.1" : (host == "::" ? "::1" : host)
    ready(LiveServerEndpoint(host: shown, port: port, token: token))
    do {
      try await listener.run()
    } catch is CancellationError {
      return
    } catch {
      if Task.isCancelled { return }
      throw LiveServerError.cannotListen(address: shownAddress, reason: "\(error)")
    }
  }

  /// Raises the soft limit on open descriptors to the hard one; returns the soft limit now.
  private static func raiseDescriptorLimit() -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 256 }
    var wanted = limit.rlim_max
    #if canImport(Darwin)
    wanted = min(wanted, rlim_t(OPEN_MAX))
    #endif
    if limit.rlim_cur < wanted {
      var raised = limit
      raised.rlim_cur = wanted
      if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
    }
    return Int(min(limit.rlim_cur, rlim_t(Int32.max)))
  }
}
