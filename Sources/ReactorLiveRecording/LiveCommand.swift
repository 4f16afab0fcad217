public import ReactorTracing

/// A command for an app that streams to `reactor-trace serve` and accepts control
/// (``LiveOptions/control``): what the live page and `reactor-trace send` ask the server for.
///
/// The server checks it (token, Host and Origin, an app that opted in, a rate limit), turns it
/// into an order for the app, and hands the order over in its answer to the app's next batch;
/// the app performs it on its reactors' actor and reports the outcome in its next request.
public enum LiveCommand: Sendable, Hashable {
  /// Sends an action, given as the JSON its `Codable` `Action` decodes, to the reactor of a
  /// trace, or in a session to the reactor at `to`, addressed as app scripts address
  /// reactors (`list/cells.0`).
  case dispatch(action: JSONValue, to: String?)
  /// Sends the action recorded at event `sequence` again, to the reactor that took it.
  case again(sequence: Int)
  /// Sets the reactor of event `sequence` to the state the recording holds after that
  /// event: "jump to the state after event N". Later actions run from there.
  case jump(sequence: Int)

  /// The body of the request the server takes at ``LiveProtocol/commandPath``.
  /// - Parameter stream: The stream whose app takes it; `nil` for the only one that accepts
  ///   control.
  /// - Returns: The body, a JSON object.
  public func requestBody(stream: String?) -> JSONValue {
    var members: [(String, JSONValue)] = []
    if let stream { members.append(("stream", .string(stream))) }
    switch self {
    case .dispatch(let action, let to):
      members.append(("action", action))
      if let to { members.append(("to", .string(to))) }
    case .again(let sequence):
      members.append(("again", .int(Int64(sequence))))
    case .jump(let sequence):
      members.append(("jump", .int(Int64(sequence))))
    }
    return .object(JSONObject(members))
  }

  /// Reads a command request's body.
  /// - Returns: The command and the stream it names, if it names one.
  /// - Throws: A one-line reason when the body is not one command.
  public static func parse(requestBody body: JSONValue) throws(LiveCommandError) -> (
    command: LiveCommand, stream: String?
  ) {
    guard let object = body.objectValue else {
      throw .malformed("a command is a JSON object")
    }
    for key in object.keys where !["stream", "action", "to", "again", "jump"].contains(key) {
      throw .malformed("a command has only 'stream', 'action', 'to', 'again' and 'jump'")
    }
    var stream: String?
    if let value = object["stream"] {
      guard let name = value.stringValue, LiveProtocol.isValidStreamID(name) else {
        throw .malformed("'stream' names no stream")
      }
      stream = name
    }
    switch (object["action"], object["again"], object["jump"]) {
    case (let action?, nil, nil):
      var to: String?
      if let value = object["to"] {
        guard let address = value.stringValue, !address.isEmpty, address.utf8.count <= 1024
        else { throw .malformed("'to' is a reactor's address, as a string") }
        to = address
      }
      return (.dispatch(action: action, to: to), stream)
    case (nil, let again?, nil):
      guard object["to"] == nil else {
        throw .malformed("'again' goes to the reactor that took the action; 'to' is not for it")
      }
      guard let sequence = again.intValue, sequence >= 1 else {
        throw .malformed("'again' is an event's sequence number, 1 or more")
      }
      return (.again(sequence: sequence), stream)
    case (nil, nil, let jump?):
      guard object["to"] == nil else {
        throw .malformed("'jump' goes to the reactor of the event; 'to' is not for it")
      }
      guard let sequence = jump.intValue, sequence >= 1 else {
        throw .malformed("'jump' is an event's sequence number, 1 or more")
      }
      return (.jump(sequence: sequence), stream)
    default:
      throw .malformed("a command has one of 'action', 'again' and 'jump'")
    }
  }
}
