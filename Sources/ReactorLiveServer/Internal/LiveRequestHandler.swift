import Foundation
import ReactorInspector
import ReactorLiveRecording
import ReactorTracing

/// Every request the server takes: apps' batches, the live page, its diagrams and its
/// socket, each checked for the token before its body is read.
final class LiveRequestHandler: Sendable {
  /// What to do with a request.
  enum Outcome {
    /// Answer it.
    case response(HTTPResponse)
    /// Answer it (`101`), then serve the page's socket.
    case webSocket(HTTPResponse)
    /// Close the connection without an answer (it failed or was shut down).
    case close
  }

  /// The subprotocol the live page's socket speaks; the token goes beside it, as
  /// `token.TOKEN`, so it never appears in a request line.
  static let subprotocol = "reactor-trace-live"

  let store: LiveStreamStore
  let policy: AccessPolicy
  let table: ConnectionTable
  private let throttle: WrongTokenThrottle
  let desk: CommandDesk
  let log: @Sendable (String) -> Void

  init(
    store: LiveStreamStore, policy: AccessPolicy, table: ConnectionTable,
    throttle: WrongTokenThrottle, desk: CommandDesk, log: @escaping @Sendable (String) -> Void
  ) {
    self.desk = desk
    self.store = store
    self.policy = policy
    self.table = table
    self.throttle = throttle
    self.log = log
  }

  /// Answers `request`, read on connection `number`; reads its body only once its token is
  /// checked.
  func handle(
    _ request: HTTPRequest, connection: inout HTTPConnection, number: Int
  ) async -> Outcome {
    guard request.count(of: "host") <= 1 else {
      return refuse(request, 400, "more than one Host header")
    }
    let path = request.path
    if path.hasPrefix(LiveProtocol.streamPathPrefix) {
      return await receiveBatch(request, connection: &connection, number: number)
    }
    if path.hasPrefix(LiveProtocol.resultsPathPrefix) {
      return await receiveOutcomes(request, connection: &connection, number: number)
    }
    if path.hasPrefix(LiveProtocol.ordersPathPrefix) {
      return await handOrders(request, number: number)
    }
    // Everything else is for a browser or a client: only for a Host that is this server's
    // address.
    if let refusal = policy.hostRefusal(request.header("host")) {
      return refuse(request, 421, refusal)
    }
    if path == LiveProtocol.commandPath {
      return await command(request, connection: &connection, number: number)
    }
    guard (request.header("content-length") ?? "0") == "0",
      request.header("transfer-encoding") == nil
    else {
      return refuse(request, 400, "a body on a page's request")
    }
    switch (request.method, path) {
    case ("GET", "/"):
      return .response(Self.page())
    case ("GET", Self.diagramPath):
      return await diagrams(request, number: number)
    case ("GET", LiveProtocol.socketPath):
      return await openSocket(request, number: number)
    default:
      return .response(.plain(404))
    }
  }

  private func receiveBatch(
    _ request: HTTPRequest, connection: inout HTTPConnection, number: Int
  ) async -> Outcome {
    if let refusal = await tokenRefusal(request, number: number, "app") { return refusal }
    let id = String(request.path.dropFirst(LiveProtocol.streamPathPrefix.count))
    guard request.method == "POST", LiveProtocol.isValidStreamID(id),
      let fromText = request.query("from"), let from = Int(fromText), from >= 1
    else {
      return refuse(request, 400, "malformed batch request \(request.shown)")
    }
    var body: [UInt8] = []
    if let ending = await read(&body, of: request, connection: &connection) { return ending }
    switch await store.receive(stream: id, from: from, body: body) {
    case .acknowledged(let sequence):
      guard request.header(LiveProtocol.controlHeader.lowercased()) == "accept" else {
        if await store.hasEnded(id) == true { await desk.ended(id) }
        return .response(Self.acknowledgement(200, sequence))
      }
      if await store.hasEnded(id) == true {
        await desk.ended(id)
        return .response(Self.acknowledgement(200, sequence))
      }
      return .response(Self.acknowledgement(sequence, orders: await desk.collect(for: id)))
    case .hole(let sequence):
      log(
        "stream \(id): batch from \(from) but the server holds up to \(sequence); asked to resend")
      return .response(Self.acknowledgement(409, sequence))
    case .refused(let reason):
      var response = refusal(request, 400, "stream \(id): \(reason)")
      response.closes = false
      return .response(response)
    case .unstored(let reason):
      // Nothing of the batch is acknowledged or left on disk; the app sends it again.
      log("stream \(id): could not store the batch from \(from): \(reason)")
      return .response(.plain(507))
    }
  }

  private func openSocket(_ request: HTTPRequest, number: Int) async -> Outcome {
    let host = request.header("host") ?? ""
    if let refusal = policy.originRefusal(request.header("origin"), host: host) {
      return refuse(request, 403, refusal)
    }
    let offered = (request.header("sec-websocket-protocol") ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let presented = offered.first { $0.hasPrefix("token.") }.map { String($0.dropFirst(6)) }
    guard offered.contains(Self.subprotocol), policy.accepts(token: presented) else {
      return await refuseToken(request, "page socket with a wrong or missing token")
    }
    table.presentedToken(number)
    guard request.header("upgrade")?.lowercased() == "websocket",
      request.header("connection")?.lowercased().contains("upgrade") == true,
      request.header("sec-websocket-version") == "13",
      let key = request.header("sec-websocket-key"), key.utf8.count == 24
    else {
      return refuse(request, 400, "malformed WebSocket handshake")
    }
    return .webSocket(
      HTTPResponse(
        status: 101,
        headers: [
          ("Upgrade", "websocket"), ("Connection", "Upgrade"),
          ("Sec-WebSocket-Accept", WebSocketFrames.accept(key: key)),
          ("Sec-WebSocket-Protocol", Self.subprotocol),
        ]))
  }

  /// Where the live page asks for the transitions diagrams of what a stream holds so far.
  static let diagramPath = "/live/v1/diagram"

  /// The diagrams of a stream and its reactors' nodes, drawn from the trace the server keeps.
  private func diagrams(_ request: HTTPRequest, number: Int) async -> Outcome {
    if let refusal = await tokenRefusal(request, number: number, "diagram request") {
      return refusal
    }
    guard let id = request.query("stream"), LiveProtocol.isValidStreamID(id),
      let path = await store.tracePath(of: id)
    else {
      return .response(.plain(404))
    }
    let body: [UInt8]
    do {
      body = try LiveInspectorPage.diagrams(tracePath: path)
    } catch {
      log("diagrams of stream \(id): \(error)")
      return .response(.plain(422))
    }
    return .response(
      HTTPResponse(
        status: 200,
        headers: [
          ("Content-Type", "application/json"), ("Cache-Control", "no-store"),
          ("X-Content-Type-Options", "nosniff"),
        ],
        body: body))
  }

  /// Checks the token `request` carries: `nil` when it is right (noted as presented on
  /// connection `number`), else the refusal, as ``refuseToken(_:_:)`` answers it.
  /// - Parameters:
  ///   - request: The request.
  ///   - number: Its connection.
  ///   - what: What sent it, for the log line: `app`, `command`.
  /// - Returns: The refusal, or `nil`.
  func tokenRefusal(_ request: HTTPRequest, number: Int, _ what: String) async -> Outcome? {
    guard policy.accepts(token: AccessPolicy.bearer(request.header("authorization"))) else {
      return await refuseToken(request, "\(what) with a wrong or missing token")
    }
    table.presentedToken(number)
    return nil
  }

  /// Reads `request`'s body into `body`, once its token is checked.
  /// - Parameters:
  ///   - body: Where the body goes.
  ///   - request: The request.
  ///   - connection: Its connection.
  /// - Returns: `nil` when it was read; else what ends the request: a refusal of a body over
  ///   a limit or malformed, or closing a connection that failed.
  func read(
    _ body: inout [UInt8], of request: HTTPRequest, connection: inout HTTPConnection
  ) async -> Outcome? {
    do {
      body = try await connection.readBody(of: request)
      return nil
    } catch let failure as HTTPReadFailure {
      return refuse(request, failure.status, failure.reason)
    } catch {
      return .close
    }
  }

  /// A refusal for a wrong token, answered no sooner than ``WrongTokenThrottle`` allows.
  func refuseToken(_ request: HTTPRequest, _ reason: String) async -> Outcome {
    let delay = throttle.delay(at: .now)
    if delay > .zero { try? await Task.sleep(for: delay) }
    return refuse(request, 401, reason)
  }

  /// One log line for a refusal, and a response that says no more than its status; the
  /// connection closes after it (an unread body may follow the head).
  func refuse(_ request: HTTPRequest, _ status: Int, _ reason: String) -> Outcome {
    .response(refusal(request, status, reason))
  }

  func refusal(_ request: HTTPRequest, _ status: Int, _ reason: String) -> HTTPResponse {
    log("refused \(request.shown) from \(request.client): \(reason)")
    return .plain(status, closes: true)
  }

  /// An acknowledgement that carries the orders an app that accepts control collects.
  private static func acknowledgement(_ sequence: Int, orders: [JSONValue]) -> HTTPResponse {
    guard !orders.isEmpty else { return acknowledgement(200, sequence) }
    let body = JSONValue.object(
      JSONObject([("acked", .int(Int64(sequence))), ("orders", .array(orders))]))
    return HTTPResponse(
      status: 200, headers: [("Content-Type", "application/json")], body: body.serialized)
  }

  private static func acknowledgement(_ status: Int, _ sequence: Int) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("Content-Type", "application/json")],
      body: Array(LiveProtocol.acknowledgement(sequence).utf8))
  }

  /// The inspector in live mode, under the page's own Content-Security-Policy.
  private static func page() -> HTTPResponse {
    HTTPResponse(
      status: 200,
      headers: [
        ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
        ("Content-Security-Policy", LiveInspectorPage.contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
      ],
      body: LiveInspectorPage.html)
  }
}
