import Foundation
import ReactorLiveServer
import ReactorTestSupport
import Testing

@testable import ReactorLiveRecording

/// Requests a real server refuses, each with one log line and a body that tells nothing.
@MainActor
@Suite struct LiveRefusalTests {
  private func exchange(
    _ server: RunningServer, _ head: String, body: String = ""
  ) async throws -> HTTPSocket.Response {
    let port = server.endpoint.port
    return try await onThread {
      let socket = try HTTPSocket(
        host: "127.0.0.1", port: port, timeoutMilliseconds: 10_000, responseLimit: 1 << 20)
      return try socket.exchange(head: head, body: body.isEmpty ? [] : [Array(body.utf8)[...]])
    }
  }

  private func socketRequest(token: String, host: String, origin: String?) -> String {
    "GET /live/v1/socket HTTP/1.1\r\nHost: \(host)\r\n"
      + "Sec-WebSocket-Protocol: reactor-trace-live, token.\(token)\r\n"
      + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
      + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      + (origin.map { "Origin: \($0)\r\n" } ?? "")
  }

  @Test func anAppWithAWrongTokenIsRefusedWithOneLogLine() async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      let server = try await RunningServer.start(directory: directory.path)
      defer { Task { await server.stop() } }
      let header = #"{"format":"reactor-trace"}"# + "\n"
      let response = try await exchange(
        server,
        "POST /live/v1/streams/intruder?from=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + "Authorization: Bearer not-the-token-at-all\r\n",
        body: header)
      #expect(response.status == 401)
      #expect(server.log.filter { $0.contains("refused") }.count == 1)
      #expect(server.log.contains { $0.contains("wrong or missing token") })
      #expect(!FileManager.default.fileExists(atPath: directory.file("intruder.trace.jsonl")))
    }
  }

  @Test func aSocketFromAnotherOriginIsRefusedAndTheServersOwnPageIsServed() async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      let server = try await RunningServer.start(directory: directory.path)
      defer { Task { await server.stop() } }
      let authority = "127.0.0.1:\(server.endpoint.port)"
      let token = server.endpoint.token

      let foreign = try await exchange(
        server, socketRequest(token: token, host: authority, origin: "http://evil.example"))
      #expect(foreign.status == 403)
      #expect(!String(decoding: foreign.body, as: UTF8.self).contains(token))
      #expect(server.log.filter { $0.contains("refused") }.count == 1)
      #expect(server.log.contains { $0.contains("Origin 'http://evil.example'") })

      let wrongToken = try await exchange(
        server, socketRequest(token: "guess", host: authority, origin: "http://\(authority)"))
      #expect(wrongToken.status == 401)

      let own = try await exchange(
        server, socketRequest(token: token, host: authority, origin: "http://\(authority)"))
      #expect(own.status == 101)

      let page = try await exchange(server, "GET / HTTP/1.1\r\nHost: \(authority)\r\n")
      #expect(page.status == 200)
      #expect(String(decoding: page.body, as: UTF8.self).contains("reactor-trace live"))
    }
  }

  @Test func aRebindingHostIsRefusedForThePageAndTheSocket() async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      let server = try await RunningServer.start(directory: directory.path)
      defer { Task { await server.stop() } }
      let rebound = "attacker.example:\(server.endpoint.port)"

      let page = try await exchange(server, "GET / HTTP/1.1\r\nHost: \(rebound)\r\n")
      #expect(page.status == 421)
      let socket = try await exchange(
        server,
        socketRequest(token: server.endpoint.token, host: rebound, origin: "http://\(rebound)"))
      #expect(socket.status == 421)
      let refusals = server.log.filter { $0.contains("refused") }
      #expect(refusals.count == 2)
      #expect(refusals.allSatisfy { $0.contains("DNS rebinding") })
    }
  }

  @Test func aStreamsDiagramsNeedTheTokenAndTheServersOwnHost() async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      let server = try await RunningServer.start(directory: directory.path)
      defer { Task { await server.stop() } }
      let port = server.endpoint.port
      let token = server.endpoint.token
      func request(token: String, host: String) -> String {
        "GET /live/v1/diagram?stream=app HTTP/1.1\r\nHost: \(host)\r\n"
          + "Authorization: Bearer \(token)\r\n"
      }

      let wrong = try await exchange(server, request(token: "guess", host: "127.0.0.1:\(port)"))
      #expect(wrong.status == 401)
      let rebound = try await exchange(
        server, request(token: token, host: "attacker.example:\(port)"))
      #expect(rebound.status == 421)
      let refusals = server.log.filter { $0.contains("refused") }
      #expect(refusals.count == 2)
      #expect(refusals.allSatisfy { !$0.contains(token) })
      let unknown = try await exchange(server, request(token: token, host: "127.0.0.1:\(port)"))
      #expect(unknown.status == 404)
    }
  }
}
