import ArgumentParser
import ReactorLiveRecording
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace send`: sends one command to an app that streams to `reactor-trace serve`
  /// and accepts control (issue 43).
  struct Send: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Send a command to a running app through reactor-trace serve.",
      discussion: """
        The app must stream with LiveOptions(control: .accept). --action sends an action, as \
        the JSON its Codable Action decodes (in a session, to the reactor at --to, addressed \
        as app scripts address reactors: list/cells.0); --again sends the action recorded at \
        event SEQ again; --jump sets the reactor of event SEQ to the state recorded after it \
        (later actions run from there). Each is recorded in the trace as coming from a \
        client. Exit codes: 0 the app took it; 2 refused or unreachable, one line saying why \
        (token, an app that did not opt in, a stream that is gone, an action or state that \
        does not decode); 64 a usage error.
        """
    )

    /// The server's URL.
    @Option(help: ArgumentHelp("The server, as serve printed it.", valueName: "URL"))
    var server: String

    /// The server's token.
    @Option(help: "The token serve printed.")
    var token: String

    /// The stream whose app takes the command.
    @Option(help: "The stream (default: the only running one that accepts commands).")
    var stream: String?

    /// The action as JSON.
    @Option(help: ArgumentHelp("Send this action (JSON).", valueName: "JSON"))
    var action: String?

    /// In a session, the reactor's address.
    @Option(help: ArgumentHelp("In a session, the reactor to send it to.", valueName: "ADDRESS"))
    var to: String?

    /// An event whose action to send again.
    @Option(help: ArgumentHelp("Send the action at this event again.", valueName: "SEQ"))
    var again: Int?

    /// An event whose recorded state to jump to.
    @Option(
      help: ArgumentHelp("Set the state to the one recorded after this event.", valueName: "SEQ"))
    var jump: Int?

    /// Checks that exactly one command is given.
    func validate() throws {
      guard [action != nil, again != nil, jump != nil].filter({ $0 }).count == 1 else {
        throw ValidationError("give one of --action JSON, --again SEQ and --jump SEQ")
      }
      if to != nil, action == nil { throw ValidationError("--to goes with --action") }
      if let again, again < 1 { throw ValidationError("--again is an event's number, 1 or more") }
      if let jump, jump < 1 { throw ValidationError("--jump is an event's number, 1 or more") }
    }

    /// Sends the command.
    func run() async throws {
      try await SendRequest(
        server: server, token: token, stream: stream, action: action, to: to, again: again,
        jump: jump
      ).exit()
    }
  }
}

/// What `send` was asked to send, and where.
struct SendRequest: CommandRequest {
  var server: String
  var token: String
  var stream: String?
  var action: String?
  var to: String?
  var again: Int?
  var jump: Int?

  @MainActor
  func run(output: any TextOutput) async throws -> ExitCode {
    let command: LiveCommand
    if let action {
      do {
        command = .dispatch(action: try JSONValue(parsing: action), to: to)
      } catch {
        throw CommandFailure.unusableInput("--action is not JSON: \(error)")
      }
    } else if let jump {
      command = .jump(sequence: jump)
    } else {
      command = .again(sequence: again ?? 1)
    }
    let client: LiveCommandClient
    do {
      client = try LiveCommandClient(server: server, token: token)
    } catch {
      throw CommandFailure.unusableInput(error.description)
    }
    let stream = self.stream
    // A blocking exchange: off the main actor.
    let outcome = await Task.detached {
      Result { () throws(LiveCommandError) in try client.send(command, stream: stream) }
    }.value
    switch outcome {
    case .success(let taken):
      output.write("stream \(taken): the app took it")
      return .success
    case .failure(let error):
      throw CommandFailure.unusableInput(error.description)
    }
  }
}
