import FlyingFox
import Foundation
import ReactorInspector
import ReactorLiveRecording
import ReactorTracing
import Synchronization

/// Every request the server takes: apps' batches, the live page, and the page's socket.
final class LiveRequestHandler: HTTPHandler, Sendable {
  private let store: LiveStreamStore
  private let token: String
  private let maximumBatchBytes: Int
  private let pageBudget: Int
  private let log: @Sendable (String) -> Void
  private let policyForPort: @Sendable (Int) -> AccessPolicy
  private let port = Mutex(0)

  init(
    store: LiveStreamStore, token: String, maximumBatchBytes: Int, pageBudget: Int,
    log: @escaping @Sendable (String) -> Void,
    policyForPort: @escaping @Sendable (Int) -> AccessPolicy
  ) {
    self.store = store
    self.token = token
    self.maximumBatchBytes = maximumBatchBytes
    self.pageBudget = pageBudget
    self.log = log
    self.policyForPort = policyForPort
  }

  /// The port the server listens on, once it does.
  func setPort(_ value: Int) { port.withLock { $0 = value } }

  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
    let policy = policyForPort(port.withLock { $0 })
    let path = request.path
    if path.hasPrefix(LiveProtocol.streamPathPrefix) {
      return await receiveBatch(request, policy: policy)
    }
    // Everything else is for a browser: only for a Host that is this server's address.
    if let refusal = policy.hostRefusal(request.headers[.host]) {
      return refuse(request, .misdirectedRequest, refusal)
    }
    switch (request.method, path) {
    case (.GET, "/"):
      return Self.page()
    case (.GET, Self.diagramPath):
      return await diagrams(request, policy: policy)
    case (.GET, LiveProtocol.socketPath):
      let host = request.headers[.host] ?? ""
      if let refusal = policy.originRefusal(request.headers[HTTPHeader("Origin")], host: host) {
        return refuse(request, .forbidden, refusal)
      }
      guard policy.accepts(token: request.query["token"]) else {
        return refuse(request, .unauthorized, "page socket with a wrong or missing token")
      }
      let socket = PageSocket(store: store, budget: pageBudget)
      return try await WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: socket))
        .handleRequest(request)
    default:
      return HTTPResponse(statusCode: .notFound)
    }
  }

  private func receiveBatch(_ request: HTTPRequest, policy: AccessPolicy) async -> HTTPResponse {
    guard policy.accepts(token: AccessPolicy.bearer(request.headers[.authorization])) else {
      return refuse(request, .unauthorized, "app with a wrong or missing token")
    }
    let id = String(request.path.dropFirst(LiveProtocol.streamPathPrefix.count))
    guard request.method == .POST, LiveProtocol.isValidStreamID(id),
      let fromText = request.query["from"], let from = Int(fromText), from >= 1
    else {
      return refuse(
        request, .badRequest, "malformed batch request \(request.method.rawValue) \(request.path)")
    }
    if let count = request.bodySequence.count, count > maximumBatchBytes {
      return refuse(request, .payloadTooLarge, "batch of \(count) bytes, over \(maximumBatchBytes)")
    }
    let body: Data
    do {
      body = try await request.bodyData
    } catch {
      return refuse(request, .badRequest, "unreadable batch: \(error)")
    }
    switch await store.receive(stream: id, from: from, body: [UInt8](body)) {
    case .acknowledged(let sequence):
      return Self.acknowledgement(.ok, sequence)
    case .hole(let sequence):
      log(
        "stream \(id): batch from \(from) but the server holds up to \(sequence); asked to resend")
      return Self.acknowledgement(.conflict, sequence)
    case .refused(let reason):
      return refuse(request, .badRequest, "stream \(id): \(reason)")
    }
  }

  /// Where the live page asks for the transitions diagrams of what a stream holds so far.
  static let diagramPath = "/live/v1/diagram"

  /// The diagrams of a stream and its reactors' nodes, drawn from the trace the server keeps.
  private func diagrams(_ request: HTTPRequest, policy: AccessPolicy) async -> HTTPResponse {
    guard policy.accepts(token: request.query["token"]) else {
      return refuse(request, .unauthorized, "diagram request with a wrong or missing token")
    }
    guard let id = request.query["stream"], LiveProtocol.isValidStreamID(id),
      let path = await store.tracePath(of: id)
    else {
      return HTTPResponse(statusCode: .notFound)
    }
    let body: [UInt8]
    do {
      body = try LiveInspectorPage.diagrams(tracePath: path)
    } catch {
      log("diagrams of stream \(id): \(error)")
      return HTTPResponse(statusCode: .unprocessableContent)
    }
    return HTTPResponse(
      statusCode: .ok,
      headers: [
        .contentType: "application/json", .cacheControl: "no-store",
        HTTPHeader("X-Content-Type-Options"): "nosniff",
      ],
      body: Data(body))
  }

  /// One log line for a refusal, and a response that says no more than its status.
  private func refuse(
    _ request: HTTPRequest, _ status: HTTPStatusCode, _ reason: String
  ) -> HTTPResponse {
    let client: String
    switch request.remoteAddress {
    case .ip4(let address, let port): client = "\(address):\(port)"
    case .ip6(let address, let port): client = "[\(address)]:\(port)"
    case .unix(let path): client = path
    case nil: client = "an unknown client"
    }
    log("refused \(request.method.rawValue) \(request.path) from \(client): \(reason)")
    return HTTPResponse(
      statusCode: status, headers: [.contentType: "text/plain"],
      body: Data("\(status.code) \(status.phrase)\n".utf8))
  }

  private static func acknowledgement(_ status: HTTPStatusCode, _ sequence: Int) -> HTTPResponse {
    HTTPResponse(
      statusCode: status, headers: [.contentType: "application/json"],
      body: Data(LiveProtocol.acknowledgement(sequence).utf8))
  }

  /// The inspector in live mode, under the page's own Content-Security-Policy.
  private static func page() -> HTTPResponse {
    HTTPResponse(
      statusCode: .ok,
      headers: [
        .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
        HTTPHeader("Content-Security-Policy"): LiveInspectorPage.contentSecurityPolicy,
        HTTPHeader("X-Content-Type-Options"): "nosniff",
        HTTPHeader("Referrer-Policy"): "no-referrer",
      ],
      body: Data(LiveInspectorPage.html))
  }
}
