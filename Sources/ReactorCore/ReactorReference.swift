/// A reactor held in another reactor's state (a cell reactor in a list's sections, a child
/// reactor in a field), as a recorded state stores it: `{"reactor": 3}`, a reference to the
/// reactor's own lane in the session, never its state.
///
/// A state that holds reactors encodes each through a reference, so that the state can be
/// recorded without the reactor being `Codable` and without reading another reactor's state:
///
/// ```swift
/// struct State: Encodable {
///   var cells: [TaskCellReactor]
///
///   func encode(to encoder: any Encoder) throws {
///     var container = encoder.container(keyedBy: CodingKeys.self)
///     try container.encode(cells.map(ReactorReference.init), forKey: .cells)
///   }
/// }
/// ```
///
/// While a session records every reactor (a ``ReactorSessionObserver`` is installed), making
/// a reference to a reactor the session does not record yet introduces it, so that the
/// reference names its lane; otherwise ``reactor`` is its ``ReactorRuntime/sessionID`` (`nil`
/// for a reactor no session records, written as `null`).
public struct ReactorReference: Encodable, Hashable, Sendable {
  /// The reactor's id in the session, or `nil` when no session records it.
  public let reactor: Int?

  /// A reference to `reactor`.
  /// - Parameter reactor: A reactor held in a state.
  @MainActor
  public init<R: Reactor>(_ reactor: R) {
    let runtime = reactor.runtime
    if runtime.sessionID == nil, runtime.monitor == nil,
      let observer = ReactorSessionObservation.observer
    {
      observer.reactorWillStart(reactor, createdBy: runtime.creator)
    }
    self.reactor = runtime.sessionID
  }

  private enum CodingKeys: String, CodingKey {
    case reactor
  }

  /// Encodes `{"reactor": id}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(reactor, forKey: .reactor)
  }
}
