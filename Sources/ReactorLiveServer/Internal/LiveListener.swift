import FlyingSocks
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's HTTP/1.1 and WebSocket layer: accepts connections within the caps
/// (``ConnectionTable``), reads each request within the limits (``HTTPConnection``), shuts
/// down a connection whose deadline passed, and hands requests to ``LiveRequestHandler``.
///
/// It replaces FlyingFox's `HTTPServer`, which could not be bounded from outside: its
/// request reader had no limit on a line's length (and parsed a line in quadratic time), no
/// read deadline, no limit on a chunked body, kept the last of two `Host` headers, queued
/// WebSocket frames without bound, and stopped serving when `accept` ran out of descriptors.
/// FlyingSocks (the same package's sockets and event loop) still does the non-blocking I/O.
struct LiveListener {
  let socket: Socket
  let port: Int
  let configuration: LiveServerConfiguration
  let table: ConnectionTable
  let handler: LiveRequestHandler
  let store: LiveStreamStore
  let log: @Sendable (String) -> Void

  /// Binds and listens on `address`, failing at once when it is in use.
  static func bind(
    _ address: some SocketAddress, shown: String
  ) throws(LiveServerError) -> (Socket, Int) {
    do {
      let socket = try Socket(domain: Int32(type(of: address).family), type: .stream)
      try socket.setValue(true, for: .localAddressReuse)
      do {
        try socket.bind(to: address)
      } catch {
        let reason = errno == EADDRINUSE ? "address in use" : "\(error)"
        try? socket.close()
        throw LiveServerError.cannotListen(address: shown, reason: reason)
      }
      try socket.listen(maxPendingConnection: 128)
      let port: Int
      switch try socket.sockname() {
      case .ip4(_, let value), .ip6(_, let value): port = Int(value)
      default: port = 0
      }
      return (socket, port)
    } catch let error as LiveServerError {
      throw error
    } catch {
      throw .cannotListen(address: shown, reason: "\(error)")
    }
  }

  /// Serves until cancelled.
  func run() async throws {
    let pool = SocketPool.make()
    try await pool.prepare()
    let listening = try AsyncSocket(socket: socket, pool: pool)
    defer { try? socket.close() }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await pool.run() }
      group.addTask {
        // The deadlines: a late connection is shut down within a quarter second.
        while !Task.isCancelled {
          try await Task.sleep(for: .milliseconds(250))
          table.shutDownLate(at: .now)
        }
      }
      group.addTask {
        await withDiscardingTaskGroup { connections in
          await acceptConnections(on: listening, into: &connections)
          table.shutDownAll()
        }
      }
      try await group.next()
      group.cancelAll()
    }
  }

  private func acceptConnections(
    on listening: AsyncSocket, into connections: inout DiscardingTaskGroup
  ) async {
    var lastCapLog = ContinuousClock.now - .seconds(10)
    while !Task.isCancelled {
      let client: AsyncSocket
      do {
        client = try await listening.accept()
      } catch is CancellationError {
        return
      } catch {
        // Out of descriptors (or a connection reset before it was taken): wait, go on.
        if ContinuousClock.now - lastCapLog > .seconds(1) {
          log("cannot accept a connection now: \(error.localizedDescription)")
          lastCapLog = .now
        }
        try? await Task.sleep(for: .milliseconds(100))
        continue
      }
      let descriptor = client.socket.file.rawValue
      let peer = Self.describe(try? client.socket.remotePeer())
      switch table.admit(descriptor, deadline: .now + configuration.requestDeadline) {
      case .failure(let refusal):
        // Answered at once, without reading: the client may try again later.
        _ = Array(Self.busy.utf8).withUnsafeBytes {
          send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        try? client.close()
        if ContinuousClock.now - lastCapLog > .seconds(1) {
          log("refused a connection from \(peer): \(refusal) (503)")
          lastCapLog = .now
        }
        continue
      case .success(let number):
        var one: Int32 = 1
        _ = setsockopt(
          descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        connections.addTask {
          await serve(client, number: number, client: peer)
          table.remove(number)
          try? client.close()
        }
      }
    }
  }

  private static let busy =
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 24\r\n"
    + "Connection: close\r\nRetry-After: 1\r\n\r\n503 Service Unavailable\n"

  private func serve(_ socket: AsyncSocket, number: Int, client: String) async {
    var connection = HTTPConnection(
      socket: socket, client: client, maximumLineBytes: configuration.maximumLineBytes,
      maximumHeadBytes: configuration.maximumHeadBytes,
      maximumBodyBytes: configuration.maximumBatchBytes)
    while true {
      let request: HTTPRequest
      do {
        guard let head = try await connection.readHead() else { return }
        request = head
      } catch let failure as HTTPReadFailure {
        log("refused a request from \(client): \(failure.reason)")
        try? await connection.send(.plain(failure.status, closes: true), keepAlive: false)
        return
      } catch {
        if table.wasLate(number) {
          log(
            "closed the connection from \(client): no whole request within \(configuration.requestDeadline)"
          )
        }
        return
      }
      switch await handler.handle(request, connection: &connection, number: number) {
      case .close:
        return
      case .response(let response):
        let keepAlive = request.keepsAlive && !response.closes
        do {
          try await connection.send(response, keepAlive: keepAlive)
        } catch {
          return
        }
        guard keepAlive else { return }
        table.setDeadline(number, .now + configuration.requestDeadline)
      case .webSocket(let response):
        do {
          try await connection.send(response, keepAlive: true)
        } catch {
          return
        }
        table.setDeadline(number, nil)
        await PageSession(
          store: store, table: table, number: number,
          budget: configuration.maximumPageBacklogBytes,
          writeDeadline: configuration.pageWriteDeadline, log: log
        ).run(connection)
        return
      }
    }
  }

  private static func describe(_ address: Socket.Address?) -> String {
    switch address {
    case .ip4(let address, let port): "\(address):\(port)"
    case .ip6(let address, let port): "[\(address)]:\(port)"
    case .unix(let path): path
    case nil: "an unknown client"
    }
  }
}
