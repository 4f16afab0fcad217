import ReactorLiveRecording
import ReactorTracing

// Commands (issue 43): the page and `reactor-trace send` post one; the app that accepts
// control collects it as an order with its next batch and posts the outcome.

extension LiveRequestHandler {
  /// The most bytes of a command's body.
  static var commandBodyLimit: Int { 1 << 20 }

  /// Takes a command: checks the token, the Origin (a page's own), the rate, the stream and
  /// its app's consent, then waits for the app's outcome.
  func command(
    _ request: HTTPRequest, connection: inout HTTPConnection, number: Int
  ) async -> Outcome {
    if let refusal = await tokenRefusal(request, number: number, "command") { return refusal }
    // A browser names the page that sends it: only the live page itself may.
    let origin = request.header("origin")
    if origin != nil,
      let refusal = policy.originRefusal(origin, host: request.header("host") ?? "")
    {
      return refuse(request, 403, refusal)
    }
    guard request.method == "POST" else { return refuse(request, 405, "a command is a POST") }
    guard await desk.allows(connection: number) else {
      return commandRefusal(
        request, 429,
        "more than \(CommandDesk.rateLimit) commands a second on one connection")
    }
    if let length = request.header("content-length").flatMap(Int.init),
      length > Self.commandBodyLimit
    {
      return refuse(request, 413, "a command of \(length) bytes")
    }
    var body: [UInt8] = []
    if let ending = await read(&body, of: request, connection: &connection) { return ending }
    let parsed: (command: LiveCommand, stream: String?)
    do {
      parsed = try LiveCommand.parse(requestBody: try JSONValue(parsing: body))
    } catch let error as LiveCommandError {
      return commandRefusal(request, 400, "\(error)")
    } catch {
      return commandRefusal(request, 400, "a command is JSON: \(error)")
    }
    let id: String
    switch await target(named: parsed.stream) {
    case .success(let found): id = found
    case .failure(let refusal): return commandRefusal(request, refusal.status, refusal.reason)
    }
    var order = JSONObject([("from", .string(origin == nil ? "client" : "page"))])
    switch parsed.command {
    case .dispatch(let action, let to):
      order["action"] = action
      if let to { order["to"] = .string(to) }
    case .again(let sequence):
      switch await recordedAction(sequence, of: id) {
      case .success(let (action, reactor)):
        order["action"] = action
        if let reactor { order["reactor"] = .int(Int64(reactor)) }
      case .failure(let refusal):
        return commandRefusal(request, refusal.status, refusal.reason)
      }
    case .jump(let sequence):
      switch await recordedState(after: sequence, of: id) {
      case .success(let (state, reactor)):
        order["jump"] = .int(Int64(sequence))
        order["state"] = state
        if let reactor { order["reactor"] = .int(Int64(reactor)) }
      case .failure(let refusal):
        return commandRefusal(request, refusal.status, refusal.reason)
      }
    }
    if let failure = await desk.submit(order, to: id) {
      return commandRefusal(request, 422, "stream \(id): \(failure)")
    }
    return .response(Self.json(200, [("stream", .string(id))]))
  }

  /// Answers an app's request for its stream's orders as soon as one is queued, or with none
  /// once the wait it asked for passed.
  func handOrders(_ request: HTTPRequest, number: Int) async -> Outcome {
    if let refusal = await tokenRefusal(request, number: number, "app") { return refusal }
    let id = String(request.path.dropFirst(LiveProtocol.ordersPathPrefix.count))
    guard request.method == "GET", LiveProtocol.isValidStreamID(id),
      (request.header("content-length") ?? "0") == "0",
      request.header("transfer-encoding") == nil
    else {
      return refuse(request, 400, "malformed orders request \(request.shown)")
    }
    // Range-checked before it becomes a duration: at most the longest wait.
    let asked = request.query("wait").flatMap(Int.init) ?? 0
    let wait = min(
      Duration.milliseconds(min(max(0, asked), 1 << 30)), LiveProtocol.longestOrdersWait)
    guard let ended = await store.hasEnded(id) else {
      return .response(Self.json(404, [("error", .string("no stream '\(id)'"))]))
    }
    guard !ended else {
      return .response(Self.json(410, [("error", .string("the stream '\(id)' has ended"))]))
    }
    let orders = await desk.awaitOrders(for: id, wait: wait)
    return .response(Self.json(200, [("orders", .array(orders))]))
  }

  /// Takes the outcomes an app posts for the orders it performed.
  func receiveOutcomes(
    _ request: HTTPRequest, connection: inout HTTPConnection, number: Int
  ) async -> Outcome {
    if let refusal = await tokenRefusal(request, number: number, "app") { return refusal }
    let id = String(request.path.dropFirst(LiveProtocol.resultsPathPrefix.count))
    guard request.method == "POST", LiveProtocol.isValidStreamID(id) else {
      return refuse(request, 400, "malformed outcomes request \(request.shown)")
    }
    var body: [UInt8] = []
    if let ending = await read(&body, of: request, connection: &connection) { return ending }
    guard let outcomes = (try? JSONValue(parsing: body))?.arrayValue else {
      var response = refusal(request, 400, "stream \(id): outcomes are a JSON array")
      response.closes = false
      return .response(response)
    }
    await desk.complete(outcomes, from: id)
    return .response(Self.json(200, []))
  }

  private struct Refusal: Error {
    var status: Int
    var reason: String
  }

  /// The stream a command goes to: the one named, or the only one whose app accepts control.
  private func target(named name: String?) async -> Result<String, Refusal> {
    guard let name else {
      var open: [String] = []
      for id in await desk.controllableStreams where await store.hasEnded(id) == false {
        open.append(id)
      }
      guard open.count == 1, let only = open.first else {
        return .failure(
          Refusal(
            status: 404,
            reason: open.isEmpty
              ? "no running stream's app accepts commands"
              : "\(open.count) running streams accept commands (\(open.joined(separator: ", "))); "
                + "name one with --stream"))
      }
      return .success(only)
    }
    guard let ended = await store.hasEnded(name) else {
      return .failure(Refusal(status: 404, reason: "no stream '\(name)'"))
    }
    guard !ended else {
      return .failure(Refusal(status: 410, reason: "the stream '\(name)' has ended"))
    }
    guard await desk.accepts(name) else {
      return .failure(
        Refusal(
          status: 403,
          reason: "the app of stream '\(name)' did not opt in to commands "
            + "(LiveOptions(control: .accept))"))
    }
    return .success(name)
  }

  /// The action recorded at event `sequence` of stream `id`, and in a session its reactor.
  private func recordedAction(_ sequence: Int, of id: String) async -> Result<
    (JSONValue, Int?), Refusal
  > {
    guard let path = await store.tracePath(of: id) else {
      return .failure(Refusal(status: 404, reason: "no stream '\(id)'"))
    }
    do {
      let reader = try SessionReader(path: path, verifyingStates: false)
      while let event = try reader.next() {
        guard event.sequence >= sequence else { continue }
        guard event.sequence == sequence,
          case .reactor(let reactor, .action(let action)) = event.kind
        else { break }
        guard let value = action.value else {
          return .failure(
            Refusal(status: 422, reason: "the action at event \(sequence) has no recorded value"))
        }
        return .success((value, reader.header.isTraceOfOneReactor ? nil : reactor))
      }
    } catch {
      return .failure(Refusal(status: 422, reason: "cannot read stream '\(id)': \(error)"))
    }
    return .failure(
      Refusal(status: 404, reason: "event \(sequence) of stream '\(id)' is not an action"))
  }

  /// The state stream `id` recorded after event `sequence`, rebuilt from its snapshots and
  /// diffs, and in a session the reactor whose event it is.
  private func recordedState(after sequence: Int, of id: String) async -> Result<
    (JSONValue, Int?), Refusal
  > {
    guard let path = await store.tracePath(of: id) else {
      return .failure(Refusal(status: 404, reason: "no stream '\(id)'"))
    }
    do {
      let reader = try SessionReader(path: path, verifyingStates: true)
      while let event = try reader.next() {
        guard event.sequence >= sequence, event.sequence > 0 else { continue }
        guard event.sequence == sequence, let reactor = event.reactor,
          let state = reader.currentState(of: reactor)
        else { break }
        guard case .json(let json) = state else {
          return .failure(
            Refusal(
              status: 422,
              reason: "the state after event \(sequence) is recorded only as its description"))
        }
        return .success((json, reader.header.isTraceOfOneReactor ? nil : reactor))
      }
    } catch {
      return .failure(Refusal(status: 422, reason: "cannot read stream '\(id)': \(error)"))
    }
    return .failure(
      Refusal(
        status: 404,
        reason: "event \(sequence) of stream '\(id)' is not an event of a live reactor"))
  }

  /// A refusal of a command whose token was right: one log line, and the reason in the body
  /// for the page or client to show.
  private func commandRefusal(_ request: HTTPRequest, _ status: Int, _ reason: String) -> Outcome {
    log("refused \(request.shown) from \(request.client): \(LogText.escaped(reason))")
    var response = Self.json(status, [("error", .string(reason))])
    response.closes = status == 400
    return .response(response)
  }

  static func json(_ status: Int, _ members: [(String, JSONValue)]) -> HTTPResponse {
    HTTPResponse(
      status: status,
      headers: [
        ("Content-Type", "application/json"), ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
      ],
      body: JSONValue.object(JSONObject(members)).serialized)
  }
}
