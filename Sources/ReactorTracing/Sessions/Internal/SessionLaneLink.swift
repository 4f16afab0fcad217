import ReactorCore
import ReactorJSON

/// What a session's log and recorder control a lane's reactor through: decode and send an
/// action, jump to a state, detach the monitor, read the state as recorded.
///
/// The lane's monitor (``SessionLane``) owns it, and the log refers to it weakly, so that it
/// lives as long as the monitor; the monitor itself is then referred to weakly by nothing
/// (for a plain-data lane), which keeps its retains and releases, one of each for every call
/// the runtime makes, on the fast path.
@MainActor
final class SessionLaneLink<R: Reactor>: SessionLaneControl {
  typealias Action = R.Action
  typealias Mutation = R.Mutation
  typealias State = R.State

  let id: Int
  private weak var reactor: R?
  /// The lane's monitor, as the runtime holds it while attached.
  var monitor: ObjectIdentifier?
  /// For a lane that encodes its events on the main actor, its monitor, whose encoder holds
  /// the last state recorded; `nil` for a plain-data lane.
  weak var encodingLane: SessionLane<R>?
  /// A copy of the lane's encoder as it started: its redactions and reflection, which
  /// ``recordedState`` encodes a plain-data lane's last state with.
  private let encoder: TraceEventEncoder<Action, Mutation, State>
  /// Where a plain-data lane keeps its last state; `nil` for a lane that encodes its events
  /// on the main actor.
  private let queue: SessionLaneQueue<Action, Mutation, State>?

  init(
    id: Int, reactor: R, encoder: TraceEventEncoder<Action, Mutation, State>,
    queue: SessionLaneQueue<Action, Mutation, State>?
  ) {
    self.id = id
    self.reactor = reactor
    self.encoder = encoder
    self.queue = queue
  }

  var isQueuingValues: Bool { queue != nil }

  func detach() {
    guard let reactor, let attached = reactor.runtime.monitor,
      ObjectIdentifier(attached) == monitor
    else { return }
    reactor.runtime.monitor = nil
    reactor.runtime.sessionID = nil
  }

  func send(_ action: JSONValue) throws(SessionSendError) {
    try send(action, external: nil)
  }

  func send(_ action: JSONValue, external: String) throws(SessionSendError) {
    try send(action, external: Optional(external))
  }

  private func send(_ action: JSONValue, external: String?) throws(SessionSendError) {
    guard let reactor else { throw .notAlive(id) }
    let decoded = try decoded(action, as: Action.self, typeName: "Action", one: "an action") {
      .undecodable(id, reason: $0)
    }
    if let external {
      reactor.send(decoded, from: external)
    } else {
      reactor.send(decoded)
    }
  }

  func send(value action: Any) throws(SessionSendError) {
    guard let reactor else { throw .notAlive(id) }
    guard let action = action as? Action else {
      throw .wrongType(
        id, expected: String(reflecting: Action.self),
        found: String(reflecting: type(of: action)))
    }
    reactor.send(action)
  }

  func jump(to state: JSONValue, event: Int, external: String) throws(SessionSendError) {
    guard let reactor else { throw .notAlive(id) }
    let decoded = try decoded(state, as: State.self, typeName: "State", one: "a state") {
      .undecodableState(id, reason: $0)
    }
    reactor.jump(to: decoded, event: event, from: external)
  }

  /// `json` decoded as a `T` with the reactor's `Codable` conformance.
  /// - Parameters:
  ///   - json: The value sent.
  ///   - type: The reactor's `Action` or `State`.
  ///   - typeName: How the reasons name the type: `Action`.
  ///   - one: How they name a value of it: `an action`.
  ///   - failure: The error for a reason it does not decode.
  /// - Returns: The decoded value.
  /// - Throws: `failure`'s error when the type is not `Decodable` or `json` does not decode.
  private func decoded<T>(
    _ json: JSONValue, as type: T.Type, typeName: String, one: String,
    _ failure: (_ reason: String) -> SessionSendError
  ) throws(SessionSendError) -> T {
    guard let decodable = type as? any Decodable.Type else {
      throw failure("its \(typeName) type is not Decodable")
    }
    let value: Any
    do {
      value = try JSONValueDecoder().decode(decodable, from: json)
    } catch {
      throw failure("\(error)")
    }
    guard let typed = value as? T else { throw failure("not \(one) of its type") }
    return typed
  }

  var recordedState: JSONValue? {
    guard reactor != nil else { return nil }
    guard let queue else { return encodingLane?.lastStateJSON }
    return encoder.recordedJSON(of: queue.lastState, isInitial: !queue.hasMutation)
  }

  var actionType: (any Decodable.Type)? {
    Action.self as? any Decodable.Type
  }
}
