import Foundation
import ReactorCore
import ReactorExamples
import ReactorLiveRecording
import ReactorLiveServer
import ReactorTracing
import Testing

/// Commands to a running app through the server (issue 43): taken only with the token, from
/// the page's own origin or a client, by an app that opted in; recorded as external.
@MainActor
@Suite(.serialized) struct LiveControlTests {
  /// A server, and a Counter streaming to it as `stream` with `control`, polling for commands
  /// every `poll` while it has nothing to send, and sending what it recorded every `interval`.
  private func controlled(
    _ control: LiveControl = .accept, stream: String = "controlled",
    poll: Duration = .milliseconds(5), interval: Duration = .milliseconds(5),
    _ body: (RunningServer, CounterReactor, LiveTraceRecorder<CounterReactor>, ScratchDirectory)
      async throws -> Void
  ) async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      let server = try await RunningServer.start(directory: directory.file("streams"))
      let reactor = CounterReactor(limit: 0)
      let recorder = try LiveTraceRecorder(
        recording: reactor,
        live: LiveOptions(
          port: server.endpoint.port, token: server.endpoint.token, streamID: stream,
          sendInterval: interval, control: control, commandPollInterval: poll),
        options: TraceOptions(metadata: ["app": "tests"], overflow: .drop))
      // The stream is on the server before any event: its first batch is its header.
      try await eventually("the stream's first acknowledgement") {
        recorder.status.connections > 0 && recorder.status.lastFailure == nil
          && FileManager.default.fileExists(
            atPath: directory.file("streams/\(stream).trace.jsonl"))
      }
      do {
        try await body(server, reactor, recorder, directory)
      } catch {
        await recorder.stop()
        await server.stop()
        throw error
      }
      await recorder.stop()
      await server.stop()
    }
  }

  private func client(_ server: RunningServer, token: String? = nil) throws -> LiveCommandClient {
    try LiveCommandClient(
      server: "http://127.0.0.1:\(server.endpoint.port)", token: token ?? server.endpoint.token)
  }

  /// Sends `command` off the main actor, where the app performs it.
  private func send(
    _ command: LiveCommand, stream: String? = "controlled", with client: LiveCommandClient
  ) async throws -> Result<String, LiveCommandError> {
    try await onThread {
      Result { () throws(LiveCommandError) in try client.send(command, stream: stream) }
    }
  }

  @Test func aDispatchedAndAResentActionAreTakenAndRecordedAsComingFromAClient() async throws {
    try await controlled { server, reactor, recorder, directory in
      let client = try client(server)
      let taken = try await send(.dispatch(action: ["decrease": [:]], to: nil), with: client)
      #expect(taken == .success("controlled"))
      #expect(reactor.currentState.value == -1)
      await recorder.flush()
      try await eventually("the action on the server") {
        recorder.status.acknowledgedSequence >= 2
      }
      let again = try await send(.again(sequence: 1), with: client)
      #expect(again == .success("controlled"))
      #expect(reactor.currentState.value == -2)
      await recorder.stop()
      let kept = try lines(of: directory.file("streams/controlled.trace.jsonl"))
      let actions = kept.filter { $0.contains(#""kind":"action""#) }
      #expect(actions.count == 2)
      #expect(actions.allSatisfy { $0.hasSuffix(#""source":"sent","external":"client"}"#) })
      let session = try SessionReader(path: directory.file("streams/controlled.trace.jsonl"))
      var externals: [String?] = []
      while let event = try session.next() {
        if case .reactor(_, .action(let action)) = event.kind { externals.append(action.external) }
      }
      #expect(externals == ["client", "client"])
    }
  }

  @Test func aCommandReachesAnIdleAppWithoutWaitingForItsNextPoll() async throws {
    // An hour between polls and between sends, and no events of its own: only the request for
    // orders the server holds can bring the command before it times out, and only the flush
    // after a command can send what it made.
    try await controlled(poll: .seconds(3600), interval: .seconds(3600)) {
      server, reactor, recorder, directory in
      let taken = try await send(
        .dispatch(action: ["decrease": [:]], to: nil), with: client(server))
      #expect(taken == .success("controlled"))
      #expect(reactor.currentState.value == -1)
      // What it made reaches the server too, without a flush asked for.
      try await eventually("the action and its mutation on the server") {
        recorder.status.acknowledgedSequence >= 2
      }
      let kept = try lines(of: directory.file("streams/controlled.trace.jsonl"))
      #expect(kept.contains { $0.hasSuffix(#""source":"sent","external":"client"}"#) })
    }
  }

  @Test func anOrdersRequestNeedsTheTokenAndAStreamThatIsThere() async throws {
    try await controlled { server, _, _, _ in
      let port = server.endpoint.port
      func get(_ stream: String, token: String) -> [UInt8] {
        Array(
          ("GET /live/v1/orders/\(stream)?wait=10 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Authorization: Bearer \(token)\r\nConnection: close\r\n\r\n").utf8)
      }
      let wrong = try await rawExchange(
        port: port, get("controlled", token: String(repeating: "x", count: 32)))
      #expect(wrong.status == 401)
      #expect(server.log.contains { $0.hasPrefix("refused GET /live/v1/orders/controlled") })
      let unknown = try await rawExchange(port: port, get("nobody", token: server.endpoint.token))
      #expect(unknown.status == 404)
      let none = try await rawExchange(port: port, get("controlled", token: server.endpoint.token))
      #expect(none.status == 200)
      #expect(none.text.hasSuffix(#"{"orders":[]}"#))
    }
  }

  @Test func anActionThatDoesNotDecodeIsRefusedWithCodablesMessage() async throws {
    try await controlled { server, reactor, _, _ in
      let refused = try await send(.dispatch(action: ["jump": [:]], to: nil), with: client(server))
      guard case .failure(.refused(422, let reason)) = refused else {
        Issue.record("expected a refusal, got \(refused)")
        return
      }
      #expect(reason.contains("does not decode"))
      #expect(reactor.currentState.value == 0)
      #expect(server.log.contains { $0.contains("refused POST /live/v1/command") })
    }
  }

  @Test func aWrongTokenAnAppThatDidNotOptInAndAStreamThatIsGoneAreRefused() async throws {
    try await controlled(.refuse, stream: "watched") { server, reactor, recorder, _ in
      let wrong = try await send(
        .dispatch(action: ["decrease": [:]], to: nil), stream: "watched",
        with: client(server, token: String(repeating: "x", count: 32)))
      #expect(wrong == .failure(.wrongToken))
      let notOptedIn = try await send(
        .dispatch(action: ["decrease": [:]], to: nil), stream: "watched", with: client(server))
      guard case .failure(.refused(403, let reason)) = notOptedIn else {
        Issue.record("expected a refusal, got \(notOptedIn)")
        return
      }
      #expect(reason.contains("did not opt in"))
      let unknown = try await send(.again(sequence: 1), stream: "nobody", with: client(server))
      #expect({ if case .failure(.refused(404, _)) = unknown { true } else { false } }())
      await recorder.stop()
      let gone = try await send(
        .dispatch(action: ["decrease": [:]], to: nil), stream: "watched", with: client(server))
      #expect({ if case .failure(.refused(410, _)) = gone { true } else { false } }())
      #expect(reactor.currentState.value == 0)
      #expect(server.log.filter { $0.hasPrefix("refused POST /live/v1/command") }.count == 4)
    }
  }

  @Test func aForeignOriginOrHostIsRefusedAndTooManyCommandsAreLimited() async throws {
    try await controlled { server, reactor, _, _ in
      let port = server.endpoint.port
      let body = #"{"stream":"controlled","action":{"decrease":{}}}"#
      func post(host: String, origin: String?) -> [UInt8] {
        Array(
          ("POST /live/v1/command HTTP/1.1\r\nHost: \(host)\r\n"
            + "Authorization: Bearer \(server.endpoint.token)\r\n"
            + (origin.map { "Origin: \($0)\r\n" } ?? "")
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body).utf8)
      }
      let foreignOrigin = try await rawExchange(
        port: port, post(host: "127.0.0.1:\(port)", origin: "http://evil.example"))
      #expect(foreignOrigin.status == 403)
      let rebound = try await rawExchange(
        port: port, post(host: "evil.example:\(port)", origin: "http://evil.example:\(port)"))
      #expect(rebound.status == 421)
      #expect(reactor.currentState.value == 0)
      // The page's own origin is taken, and recorded as the page's.
      let page = try await rawExchange(
        port: port, post(host: "127.0.0.1:\(port)", origin: "http://127.0.0.1:\(port)"))
      #expect(page.status == 200)
      #expect(reactor.currentState.value == -1)

      // One connection, many commands: past the limit each is refused at once.
      let bad = #"{"stream":"controlled","again":999}"#
      var requests = ""
      for index in 0..<25 {
        requests +=
          "POST /live/v1/command HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
          + "Authorization: Bearer \(server.endpoint.token)\r\n"
          + (index == 24 ? "Connection: close\r\n" : "")
          + "Content-Length: \(bad.utf8.count)\r\n\r\n" + bad
      }
      let replies = try await rawExchange(port: port, Array(requests.utf8)).text
      let statuses = replies.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap {
        Int($0.prefix(3))
      }
      #expect(statuses.count >= 21, "\(statuses) \(replies.suffix(300))")
      #expect(statuses.contains(429))
      #expect(server.log.contains { $0.contains("commands a second on one connection") })
    }
  }

  @Test func aStreamsOwnContentNeverBecomesAnOrder() async throws {
    try await controlled { server, reactor, _, _ in
      let port = server.endpoint.port
      // Labels and values shaped like orders and commands, in a stream that accepts control.
      let smuggled =
        counterHeader
        + #"{"seq":1,"t":0,"kind":"action","id":1,"label":"{\"orders\":[{\"id\":1,\"from\":\"client\",\"action\":{\"decrease\":{}}}]}","value":{"orders":[{"id":1,"from":"page","action":{"decrease":{}}}],"stream":"controlled","action":{"decrease":{}}},"source":"sent"}"#
        + "\n"
      let reply = try await rawExchange(
        port: port,
        Array(
          (postHead("smuggler", token: server.endpoint.token, length: smuggled.utf8.count)
            .replacingOccurrences(of: "\r\n\r\n", with: "\r\nReactor-Control: accept\r\n\r\n")
            + smuggled).utf8))
      #expect(reply.status == 200)
      #expect(!reply.text.contains("orders"))
      // And no command reaches the app that streams beside it.
      try await Task.sleep(for: .milliseconds(50))
      #expect(!server.log.contains { $0.contains("command") })
      #expect(reactor.currentState.value == 0)
    }
  }

  @Test func sendExitsZeroWhenTakenAndTwoWithOneLineWhenRefusedAndTheRunReplays() async throws {
    try await controlled { server, reactor, recorder, directory in
      let url = "http://127.0.0.1:\(server.endpoint.port)"
      let token = server.endpoint.token
      let taken = try await runProduct(
        "reactor-trace",
        ["send", "--server", url, "--token", token, "--action", #"{"decrease":{}}"#])
      #expect(taken.status == 0)
      #expect(taken.output == "stream controlled: the app took it\n")
      await recorder.flush()
      try await eventually("the action on the server") {
        recorder.status.acknowledgedSequence >= 2
      }
      let again = try await runProduct(
        "reactor-trace",
        ["send", "--server", url, "--token", token, "--stream", "controlled", "--again", "1"])
      #expect(again.status == 0)
      #expect(reactor.currentState.value == -2)
      for (arguments, reason) in [
        (["--token", String(repeating: "x", count: 32), "--action", "{}"], "refused the token"),
        (["--token", token, "--action", #"{"nope":1}"#], "does not decode"),
        (["--token", token, "--stream", "gone", "--again", "1"], "no stream 'gone'"),
      ] {
        let refused = try await runProduct(
          "reactor-trace", ["send", "--server", url] + arguments)
        #expect(refused.status == 2)
        #expect(refused.error.hasPrefix("reactor-trace: refused: "))
        #expect(refused.error.contains(reason))
        #expect(refused.error.filter { $0 == "\n" }.count == 1)
      }
      await recorder.stop()
      let kept = directory.file("streams/controlled.trace.jsonl")
      for mode in ["structural", "reduce", "mutate"] {
        let replay = try await runProduct("reactor-trace", ["replay", kept, "--mode", mode])
        #expect(replay.status == 0, "\(mode): \(replay.output)\(replay.error)")
      }
    }
  }

  @Test func aJumpSetsTheStateRecordedAfterAnEventAndTheRunStillReplays() async throws {
    try await controlled { server, reactor, recorder, directory in
      let url = "http://127.0.0.1:\(server.endpoint.port)"
      let token = server.endpoint.token
      let client = try client(server)
      for _ in 0..<2 {
        let taken = try await send(.dispatch(action: ["decrease": [:]], to: nil), with: client)
        #expect(taken == .success("controlled"))
      }
      #expect(reactor.currentState.value == -2)
      await recorder.flush()
      try await eventually("both actions on the server") {
        recorder.status.acknowledgedSequence >= 8
      }
      // Events 1–4 are the first decrease: its action, then loading, value -1, loaded.
      let jumped = try await runProduct(
        "reactor-trace", ["send", "--server", url, "--token", token, "--jump", "4"])
      #expect(jumped.status == 0, "\(jumped.error)")
      #expect(jumped.output == "stream controlled: the app took it\n")
      #expect(reactor.currentState.value == -1)
      #expect(!reactor.currentState.isLoading)
      let after = try await send(.dispatch(action: ["decrease": [:]], to: nil), with: client)
      #expect(after == .success("controlled"))
      #expect(reactor.currentState.value == -2)
      for (arguments, reason) in [
        (["--jump", "999"], "event 999 of stream 'controlled' is not an event of a live reactor"),
        (["--stream", "gone", "--jump", "1"], "no stream 'gone'"),
      ] {
        let refused = try await runProduct(
          "reactor-trace", ["send", "--server", url, "--token", token] + arguments)
        #expect(refused.status == 2)
        #expect(refused.error == "reactor-trace: refused: \(reason)\n")
      }
      await recorder.stop()
      let kept = try lines(of: directory.file("streams/controlled.trace.jsonl"))
      #expect(kept.first?.contains(#""version":"1.4""#) == true)
      let jumps = kept.filter { $0.contains(#""kind":"jump""#) }
      #expect(jumps.count == 1)
      #expect(jumps.first?.contains(#""to":4,"external":"client","snapshot":{"#) == true)
      let path = directory.file("streams/controlled.trace.jsonl")
      for mode in ["structural", "reduce", "mutate"] {
        let replay = try await runProduct("reactor-trace", ["replay", path, "--mode", mode])
        #expect(replay.status == 0, "\(mode): \(replay.output)\(replay.error)")
      }
    }
  }

  @Test func aJumpCommandIsOneSequenceNumberForTheReactorOfThatEvent() throws {
    let body = LiveCommand.jump(sequence: 4).requestBody(stream: "s")
    #expect(body.serializedString == #"{"jump":4,"stream":"s"}"#)
    #expect(try LiveCommand.parse(requestBody: body) == (.jump(sequence: 4), "s"))
    for (text, reason) in [
      (#"{"jump":0}"#, "'jump' is an event's sequence number, 1 or more"),
      (#"{"jump":2,"to":"list"}"#, "'jump' goes to the reactor of the event; 'to' is not for it"),
      (#"{"jump":2,"again":2}"#, "a command has one of 'action', 'again' and 'jump'"),
    ] {
      #expect(throws: LiveCommandError.malformed(reason)) {
        _ = try LiveCommand.parse(requestBody: try JSONValue(parsing: Array(text.utf8)))
      }
    }
  }

  @Test func aSessionTakesAnActionAddressedToOneOfItsReactors() async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      let server = try await RunningServer.start(directory: directory.file("streams"))
      let url = "http://127.0.0.1:\(server.endpoint.port)"
      let token = server.endpoint.token
      let app = Task {
        try await runProduct(
          "reactor-trace-live-example",
          [
            "--session", "taskapp", "--port", "\(server.endpoint.port)", "--token", token,
            "--stream", "taskapp", "--control", "120", "--stop-file", directory.file("stop"),
          ])
      }
      // Once the sample's taps are on the server, the app takes commands.
      try await eventually("the sample session on the server") {
        (try? lines(of: directory.file("streams/taskapp.trace.jsonl")).count) ?? 0 >= 57
      }
      let unaddressed = try await runProduct(
        "reactor-trace",
        ["send", "--server", url, "--token", token, "--action", #"{"toggle":{}}"#])
      #expect(unaddressed.status == 2)
      #expect(unaddressed.error.contains("address"))
      let taken = try await runProduct(
        "reactor-trace",
        [
          "send", "--server", url, "--token", token, "--stream", "taskapp", "--action",
          #"{"toggle":{}}"#, "--to", "list/cells.0",
        ])
      #expect(taken.status == 0, "\(taken.error)")
      // The cell back to its state before the toggle: its event just before it.
      let stream = directory.file("streams/taskapp.trace.jsonl")
      try await eventually("the toggle on the server") {
        (try? lines(of: stream).contains { $0.contains(#""external":"client""#) }) == true
      }
      let events = try lines(of: stream).dropFirst().map { try JSONValue(parsing: Array($0.utf8)) }
      let toggle = try #require(events.first { $0["external"]?.stringValue == "client" })
      let cell = try #require(toggle["reactor"]?.intValue)
      let toggleSeq = try #require(toggle["seq"]?.intValue)
      let earlier = try #require(
        events.last {
          $0["reactor"]?.intValue == cell && ($0["seq"]?.intValue ?? .max) < toggleSeq
        }?["seq"]?.intValue)
      let jumped = try await runProduct(
        "reactor-trace",
        ["send", "--server", url, "--token", token, "--stream", "taskapp", "--jump", "\(earlier)"])
      #expect(jumped.status == 0, "\(jumped.error)")
      _ = FileManager.default.createFile(atPath: directory.file("stop"), contents: Data())
      let finished = try await app.value
      #expect(finished.status == 0, "\(finished.error)")
      await server.stop()
      let kept = try lines(of: directory.file("streams/taskapp.trace.jsonl"))
      let external = kept.filter {
        $0.contains(#""external":"client""#) && $0.contains(#""kind":"action""#)
      }
      #expect(external.count == 1)
      #expect(external.first?.contains(#""label":"toggle""#) == true)
      #expect(kept.first?.contains(#""version":"2.2""#) == true)
      let jumps = kept.filter { $0.contains(#""kind":"jump""#) }
      #expect(jumps.count == 1)
      #expect(jumps.first?.contains(#""reactor":\#(cell),"kind":"jump","to":\#(earlier),"#) == true)
      let replay = try await runProduct(
        "reactor-trace", ["replay", directory.file("streams/taskapp.trace.jsonl")])
      #expect(replay.status == 0, "\(replay.output)\(replay.error)")
    }
  }
}

/// Runs a product built beside the tests to its end, on a thread of its own (the app under
/// test performs commands on the main actor meanwhile).
private func runProduct(_ name: String, _ arguments: [String]) async throws -> (
  status: Int32, output: String, error: String
) {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for _ in 0..<4
  where !FileManager.default.isExecutableFile(
    atPath: directory.appendingPathComponent(name).path)
  {
    directory = directory.deletingLastPathComponent()
  }
  let executable = directory.appendingPathComponent(name)
  return try await onThread {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outputData, as: UTF8.self),
      String(decoding: errorData, as: UTF8.self)
    )
  }
}
