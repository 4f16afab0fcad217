import ReactorTracing

/// Where a live recording that accepts control performs the orders the server hands its
/// stream: on the main actor, one after the other, each outcome reported back to the stream.
///
/// The stream is made before the recorder that performs, so the recorder installs
/// ``performer`` once it exists; until then, and once it is gone, orders fail.
@MainActor
final class LiveOrders {
  /// Performs one order; returns why it failed, or `nil` once the app took it.
  var performer: ((LiveOrder) -> String?)?
  /// Called once the orders of an answer are performed: the recorder hands what they
  /// recorded to the stream at once, rather than at its next send interval.
  var didPerform: (() -> Void)?
  weak var stream: LiveStream?

  nonisolated init() {}

  /// What the stream calls on its sender thread with the orders of an answer.
  nonisolated var receiver: @Sendable ([JSONValue]) -> Void {
    { [self] orders in Task { @MainActor in perform(orders) } }
  }

  private func perform(_ orders: [JSONValue]) {
    var outcomes: [JSONValue] = []
    for json in orders {
      guard let id = json["id"]?.intValue else { continue }
      var outcome = JSONObject([("id", .int(Int64(id)))])
      let failure: String?
      if let order = LiveOrder(json) {
        failure = performer.map { $0(order) } ?? "the app's recording has stopped"
      } else {
        failure = "the app does not understand this order"
      }
      if let failure { outcome["error"] = .string(failure) }
      outcomes.append(.object(outcome))
    }
    didPerform?()
    stream?.report(outcomes)
  }
}

/// One order from the server, from the page or a client: an action to send, or a recorded
/// state to jump to.
struct LiveOrder {
  /// What an order asks for.
  enum Kind {
    /// Send this action.
    case action(JSONValue)
    /// Make this recorded state, the one after event `sequence`, the reactor's.
    case jump(sequence: Int, state: JSONValue)
  }

  /// `page` or `client`: what the trace records as the action's or jump's `external`.
  var from: String
  var kind: Kind
  /// In a session: the address of the reactor it goes to.
  var to: String?
  /// In a session: the id of the reactor it goes to (an action sent again, a jump).
  var reactor: Int?

  init?(_ json: JSONValue) {
    guard let from = json["from"]?.stringValue, from == "page" || from == "client" else {
      return nil
    }
    if let action = json["action"] {
      kind = .action(action)
    } else if let sequence = json["jump"]?.intValue, sequence >= 1, let state = json["state"] {
      kind = .jump(sequence: sequence, state: state)
    } else {
      return nil
    }
    self.from = from
    to = json["to"]?.stringValue
    reactor = json["reactor"]?.intValue
  }

  /// Codable's message for a value that does not decode, on one line.
  static func message(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    let context: DecodingError.Context
    switch error {
    case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found),
      .dataCorrupted(let found):
      context = found
    @unknown default:
      return "\(error)"
    }
    let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
    let message = context.debugDescription
    return path.isEmpty ? message : "at \(path.joined(separator: ".")): \(message)"
  }
}
