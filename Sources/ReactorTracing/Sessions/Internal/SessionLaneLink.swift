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
    guard let type = Action.self as? any Decodable.Type else {
      throw .undecodable(id, reason: "its Action type is not Decodable")
    }
    let decoded: Action
    do {
      guard let value = try JSONValueDecoder().decode(type, from: action) as? Action else {
        throw SessionSendError.undecodable(id, reason: "not an action of its type")
      }
      decoded = value
    } catch let error as SessionSendError {
      throw error
    } catch {
      throw .undecodable(id, reason: "\(error)")
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
    guard let type = State.self as? any Decodable.Type else {
      throw .undecodableState(id, reason: "its State type is not Decodable")
    }
    let decoded: State
    do {
      guard let value = try JSONValueDecoder().decode(type, from: state) as? State else {
        throw SessionSendError.undecodableState(id, reason: "not a state of its type")
      }
      decoded = value
    } catch let error as SessionSendError {
      throw error
    } catch {
      throw .undecodableState(id, reason: "\(error)")
    }
    reactor.jump(to: decoded, event: event, from: external)
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
