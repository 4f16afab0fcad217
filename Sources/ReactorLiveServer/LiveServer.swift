import FlyingFox
import FlyingSocks
import Foundation
import ReactorLiveRecording

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
/// only to the page's own `Origin`, and both only with the token. Every refusal is one log
/// line naming the client and the reason; nothing about the streams is in a refusal.
public final class LiveServer: Sendable {
  /// The configuration it was made with, its token settled.
  public let configuration: LiveServerConfiguration
  private let token: String
  private let store: LiveStreamStore
  private let log: @Sendable (String) -> Void

  /// Prepares a server: creates the directory, settles the token, and opens the streams an
  /// earlier run kept there.
  /// - Parameters:
  ///   - configuration: Where to listen and keep streams.
  ///   - log: Where each log line goes (one line per call, no newline).
  /// - Throws: ``LiveServerError`` for an unusable directory, token, address or kept stream.
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
    token = try Self.settleToken(configuration.token, directory: directory)
    self.configuration = configuration
    self.log = log
    store = LiveStreamStore(
      directory: directory, pageBudget: configuration.maximumPageBacklogBytes, log: log)
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
    try await store.resume(kept)
  }

  /// Listens until the task is cancelled.
  /// - Parameter ready: Called once, when the server listens, with where to reach it.
  /// - Throws: ``LiveServerError/cannotListen(address:reason:)`` when it cannot listen.
  public func run(ready: @escaping @Sendable (LiveServerEndpoint) -> Void) async throws {
    let host = configuration.host
    let isIPv6 = host.contains(":")
    let address: any SocketAddress
    do {
      if isIPv6 {
        address = try sockaddr_in6.inet6(ip6: host, port: UInt16(configuration.port))
      } else {
        address = try sockaddr_in.inet(ip4: host, port: UInt16(configuration.port))
      }
    } catch {
      throw LiveServerError.invalidHost(host)
    }
    let isLoopback = AccessPolicy.loopback(ofAddress: host) ?? false
    let handler = LiveRequestHandler(
      store: store, token: token, maximumBatchBytes: configuration.maximumBatchBytes,
      pageBudget: configuration.maximumPageBacklogBytes, log: log,
      policyForPort: { port in
        AccessPolicy(token: self.token, port: port, acceptsNetwork: !isLoopback)
      })
    let server = HTTPServer(
      config: HTTPServer.Configuration(
        address: address, timeout: 60,
        pool: NoDelaySocketPool(pool: HTTPServer.defaultPool()), logger: .disabled),
      handler: handler)
    let task = Task { try await server.run() }
    do {
      try await withTaskCancellationHandler {
        try await server.waitUntilListening(timeout: 60)
        guard case .some(let listening) = await server.listeningAddress else {
          throw LiveServerError.cannotListen(
            address: "\(host):\(configuration.port)", reason: "no address")
        }
        let port: Int
        switch listening {
        case .ip4(_, let value), .ip6(_, let value): port = Int(value)
        default: port = configuration.port
        }
        handler.setPort(port)
        let shown = host == "0.0.0.0" ? "127.0.0.1" : (host == "::" ? "::1" : host)
        ready(LiveServerEndpoint(host: shown, port: port, token: token))
        try await task.value
      } onCancel: {
        task.cancel()
      }
    } catch let error as LiveServerError {
      task.cancel()
      throw error
    } catch is CancellationError {
      await server.stop()
    } catch {
      task.cancel()
      throw LiveServerError.cannotListen(
        address: "\(host):\(configuration.port)", reason: "\(error)")
    }
  }

  /// The token given, or the one kept in the directory, or a new one kept there.
  private static func settleToken(
    _ given: String?, directory: String
  ) throws(LiveServerError) -> String {
    func isValid(_ token: String) -> Bool {
      (16...128).contains(token.utf8.count) && LiveProtocol.isValidStreamID(token.prefix(64))
        && LiveProtocol.isValidStreamID(token.suffix(64))
    }
    if let given {
      guard isValid(given) else { throw .invalidToken(given) }
      return given
    }
    let path = directory + "/token"
    if let data = FileManager.default.contents(atPath: path) {
      let kept = String(decoding: data, as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines)
      if isValid(kept) { return kept }
    }
    let token = LiveOptions.randomStreamID()
    guard
      FileManager.default.createFile(
        atPath: path, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600])
    else {
      throw .unusableDirectory(path: directory, reason: "cannot write its token file")
    }
    return token
  }
}
