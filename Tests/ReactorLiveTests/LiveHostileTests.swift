import Foundation
import ReactorLiveServer
import ReactorTestSupport
import Testing

/// Requests from clients that do not play by the rules, against a real server in this
/// process: every one is refused or bounded, and the server goes on serving.
@MainActor
@Suite struct LiveHostileTests {
  /// Posts `body` to stream `id` and reads the reply.
  private func post(
    _ server: RunningServer, _ id: String, from: Int = 1, _ body: String
  ) async throws -> RawReply {
    let head = postHead(id, from: from, token: server.endpoint.token, length: body.utf8.count)
    return try await rawExchange(port: server.endpoint.port, Array((head + body).utf8))
  }

  private func serving(
    _ configure: @escaping @Sendable (inout LiveServerConfiguration) -> Void = { _ in },
    _ body: (RunningServer, ScratchDirectory) async throws -> Void
  ) async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      let server = try await RunningServer.start(directory: directory.path, configure: configure)
      do {
        try await body(server, directory)
      } catch {
        await server.stop()
        throw error
      }
      await server.stop()
    }
  }

  @Test func aLongRequestLineWithoutTheTokenIsRefusedAtOnce() async throws {
    try await serving { server, _ in
      // 100 KiB without a newline: refused once 8 KiB arrived, not parsed for minutes.
      let reply = try await rawExchange(
        port: server.endpoint.port, Array(("GET /" + String(repeating: "a", count: 100_000)).utf8))
      #expect(!reply.timedOut)
      #expect(reply.status == 414 || reply.wasReset || reply.bytes.isEmpty)
      #expect(server.log.contains { $0.contains("request line over 8192 bytes") })
      let headers = (0..<2000).map { "X-Filler-\($0): \(String(repeating: "b", count: 30))\r\n" }
      let many = try await rawExchange(
        port: server.endpoint.port,
        Array(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers.joined() + "\r\n").utf8))
      #expect(!many.timedOut)
      #expect(server.log.contains { $0.contains("request head over 32768 bytes") })
      // Still serving.
      let ok = try await post(server, "after", batch(events: 2))
      #expect(ok.status == 200, "\(ok.text)")
    }
  }

  @Test func aRequestThatDoesNotArriveInTimeIsClosed() async throws {
    try await serving(
      { $0.requestDeadline = .milliseconds(300) },
      { server, _ in
        let reply = try await onThread {
          let connection = try RawConnection(port: server.endpoint.port)
          connection.send("GET / HTT")
          return connection.readToEnd()
        }
        #expect(!reply.timedOut)
        try await eventually("the deadline's log line") {
          server.log.contains { $0.contains("no whole request within") }
        }
      })
  }

  @Test func connectionsWithoutTheTokenCannotKeepAnAppOut() async throws {
    try await serving(
      { $0.maximumConnectionsWithoutToken = 4 },
      { server, _ in
        let port = server.endpoint.port
        let idle = try (0..<4).map { _ in try RawConnection(port: port) }
        // A fifth connection makes room by closing the oldest one without a token.
        let ok = try await post(server, "app", batch(events: 3))
        #expect(ok.status == 200, "\(ok.text)")
        let oldest = try await onThread { [idle] in idle[0].readToEnd() }
        #expect(!oldest.timedOut)
        _ = idle
      })
  }

  @Test func connectionsOverTheCapAreAnswered503() async throws {
    try await serving(
      {
        $0.maximumConnections = 2
        $0.maximumConnectionsWithoutToken = 2
      },
      { server, _ in
        let port = server.endpoint.port
        let held = try (0..<2).map { _ in try RawConnection(port: port) }
        let reply = try await onThread {
          let third = try RawConnection(port: port)
          return third.readToEnd()
        }
        #expect(reply.status == 503, "\(reply.text)")
        _ = held
      })
  }

  @Test func aKeptFileThatHoldsNoStreamDoesNotStopTheServer() async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      _ = FileManager.default.createFile(
        atPath: directory.file("empty.trace.jsonl"), contents: Data())
      _ = FileManager.default.createFile(
        atPath: directory.file("garbage.trace.jsonl"), contents: Data("no header\n".utf8))
      let server = try await RunningServer.start(directory: directory.path)
      defer { Task { await server.stop() } }
      #expect(!FileManager.default.fileExists(atPath: directory.file("empty.trace.jsonl")))
      #expect(FileManager.default.fileExists(atPath: directory.file("garbage.trace.jsonl")))
      #expect(server.log.contains { $0.contains("removed the empty file") })
      #expect(server.log.contains { $0.contains("passed over") && $0.contains("garbage") })
      let ok = try await post(server, "fresh", batch(events: 1))
      #expect(ok.status == 200)
    }
  }

  @Test func aRefusedFirstBatchLeavesNoFile() async throws {
    try await serving { server, directory in
      let refused = try await post(server, "torn", counterHeader + "{\"seq\":1,\"t\":0,oops\n")
      #expect(refused.status == 400)
      #expect(!FileManager.default.fileExists(atPath: directory.file("torn.trace.jsonl")))
      let taken = try await post(server, "torn", batch(events: 2))
      #expect(taken.status == 200, "\(taken.text)")
      #expect(try lines(of: directory.file("torn.trace.jsonl")).count == 3)
    }
  }

  @Test func aChunkedBatchOverTheLimitIsRefusedBeforeItIsRead() async throws {
    try await serving(
      { $0.maximumBatchBytes = 4096 },
      { server, directory in
        let body = Array(batch(events: 40, padding: 100).utf8)
        #expect(body.count > 4096)
        var request = Array(
          ("POST /live/v1/streams/big?from=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Authorization: Bearer \(server.endpoint.token)\r\n"
            + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n").utf8)
        var offset = 0
        while offset < body.count {
          let piece = body[offset..<min(body.count, offset + 1000)]
          request += Array((String(piece.count, radix: 16) + "\r\n").utf8) + piece + [13, 10]
          offset += piece.count
        }
        request += Array("0\r\n\r\n".utf8)
        let reply = try await rawExchange(port: server.endpoint.port, request)
        #expect(reply.status == 413 || reply.wasReset, "\(reply.text)")
        #expect(server.log.contains { $0.contains("chunked batch over 4096 bytes") })
        #expect(!FileManager.default.fileExists(atPath: directory.file("big.trace.jsonl")))
      })
  }

  @Test func aPageThatNeverReadsIsDropped() async throws {
    try await serving(
      { $0.pageWriteDeadline = .milliseconds(300) },
      { server, _ in
        // 16 MiB of history, more than the socket's buffers hold.
        var from = 1
        for _ in 0..<16 {
          var body = counterHeader
          for seq in from..<(from + 1024) {
            body +=
              #"{"seq":\#(seq),"t":0,"kind":"action","id":\#(seq),"label":"\#(String(repeating: "y", count: 1000))"}"#
              + "\n"
          }
          let reply = try await post(server, "history", from: from, body)
          #expect(reply.status == 200)
          from += 1024
        }
        let token = server.endpoint.token
        let authority = "127.0.0.1:\(server.endpoint.port)"
        let page = try await onThread {
          let connection = try RawConnection(port: server.endpoint.port)
          connection.send(
            "GET /live/v1/socket HTTP/1.1\r\nHost: \(authority)\r\nOrigin: http://\(authority)\r\n"
              + "Sec-WebSocket-Protocol: reactor-trace-live, token.\(token)\r\n"
              + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
              + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
          let head = connection.readHead()
          connection.send(maskedTextFrame(#"{"watch":"history"}"#))
          return (connection, head)
        }
        #expect(page.1.status == 101, "\(page.1.text)")
        #expect(page.1.text.contains("Sec-WebSocket-Protocol: reactor-trace-live"))
        try await eventually("the page to be dropped") {
          server.log.contains { $0.contains("read nothing for") && $0.contains("dropped it") }
        }
      })
  }

  @Test func refusalLogLinesCannotBeForged() async throws {
    try await serving { server, _ in
      let port = server.endpoint.port
      _ = try await rawExchange(
        port: port,
        Array(
          ("GET /x%0Astream%20FORGED:%20ended HTTP/1.1\r\nHost: \u{1b}]0;evil\u{7}:\(port)\r\n"
            + "Connection: close\r\n\r\n").utf8))
      _ = try await rawExchange(
        port: port, Array("GET /\u{1b}[2J HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
      _ = try await rawExchange(
        port: port,
        Array(
          ("GET /live/v1/socket HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Origin: http://\u{1b}[31mred\u{85}\r\nConnection: close\r\n\r\n").utf8))
      try await eventually("three refusals") { server.log.count >= 3 }
      for line in server.log {
        #expect(
          !line.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) },
          "\(line)")
        #expect(!line.hasPrefix("stream FORGED"))
      }
    }
  }

  @Test func theTokenFileIsTheOwnersAloneAndAnUnsafeOneIsRefused() async throws {
    let directory = try ScratchDirectory()
    defer { directory.remove() }
    _ = try await LiveServer(
      configuration: LiveServerConfiguration(directory: directory.path), log: { _ in })
    let mode = try #require(
      try FileManager.default.attributesOfItem(atPath: directory.file("token"))[.posixPermissions]
        as? Int)
    #expect(mode == 0o600)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["token"])
    chmod(directory.file("token"), 0o644)
    await #expect(throws: LiveServerError.self) {
      _ = try await LiveServer(
        configuration: LiveServerConfiguration(directory: directory.path), log: { _ in })
    }
    chmod(directory.file("token"), 0o600)
    try FileManager.default.moveItem(
      atPath: directory.file("token"), toPath: directory.file("elsewhere"))
    try FileManager.default.createSymbolicLink(
      atPath: directory.file("token"), withDestinationPath: directory.file("elsewhere"))
    await #expect(throws: LiveServerError.self) {
      _ = try await LiveServer(
        configuration: LiveServerConfiguration(directory: directory.path), log: { _ in })
    }
  }

  @Test func streamFilesAreNeverWrittenThroughALink() async throws {
    try await serving { server, directory in
      let outside = directory.file("outside.txt")
      _ = FileManager.default.createFile(atPath: outside, contents: Data("mine\n".utf8))
      try FileManager.default.createSymbolicLink(
        atPath: directory.file("victim.trace.jsonl"), withDestinationPath: outside)
      let reply = try await post(server, "victim", batch(events: 1))
      #expect(reply.status == 400)
      #expect(try String(contentsOfFile: outside, encoding: .utf8) == "mine\n")
    }
  }

  @Test func aBusyPortIsReportedAtOnce() async throws {
    try await serving { server, directory in
      let second = try await LiveServer(
        configuration: LiveServerConfiguration(
          port: server.endpoint.port, directory: directory.path + "/second"),
        log: { _ in })
      await #expect {
        try await second.run { _ in }
      } throws: { error in
        guard case .cannotListen(_, let reason) = error as? LiveServerError else { return false }
        return reason == "address in use"
      }
    }
  }

  @Test func theTokenInAQueryStringIsRefused() async throws {
    try await serving { server, _ in
      let authority = "127.0.0.1:\(server.endpoint.port)"
      let token = server.endpoint.token
      let socket = try await rawExchange(
        port: server.endpoint.port,
        Array(
          ("GET /live/v1/socket?token=\(token) HTTP/1.1\r\nHost: \(authority)\r\n"
            + "Origin: http://\(authority)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
            .utf8))
      #expect(socket.status == 401)
      let diagram = try await rawExchange(
        port: server.endpoint.port,
        Array(
          ("GET /live/v1/diagram?stream=x&token=\(token) HTTP/1.1\r\nHost: \(authority)\r\n"
            + "Connection: close\r\n\r\n").utf8))
      #expect(diagram.status == 401)
    }
  }

  @Test func twoHostHeadersAreRefused() async throws {
    try await serving { server, _ in
      let authority = "127.0.0.1:\(server.endpoint.port)"
      let reply = try await rawExchange(
        port: server.endpoint.port,
        Array(
          ("GET / HTTP/1.1\r\nHost: evil.example:\(server.endpoint.port)\r\nHost: \(authority)\r\n"
            + "Connection: close\r\n\r\n").utf8))
      #expect(reply.status == 400)
      #expect(server.log.contains { $0.contains("more than one Host header") })
    }
  }

  @Test func streamNamesThatDifferOnlyInCaseShareNoFile() async throws {
    try await serving { server, directory in
      #expect(try await post(server, "abc", batch(events: 2)).status == 200)
      let other = try await post(server, "ABC", batch(events: 2))
      #expect(other.status == 400)
      #expect(server.log.contains { $0.contains("differs only in case") })
      #expect(try lines(of: directory.file("abc.trace.jsonl")).count == 3)
      #expect(!FileManager.default.fileExists(atPath: directory.file("ABC.trace.jsonl")))
    }
  }
}

/// A client's text frame, masked as RFC 6455 requires.
func maskedTextFrame(_ text: String) -> [UInt8] {
  let payload = Array(text.utf8)
  let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
  precondition(payload.count < 126)
  return [0x81, 0x80 | UInt8(payload.count)] + mask
    + payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
}
