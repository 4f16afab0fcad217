import ReactorJSON

extension TraceEvent {
  /// What was running in another reactor of a session when it sent an action or published a
  /// stream element: that reactor, and the action and the effect of it that were running.
  ///
  /// In a session trace it is the `from` member of an action, and of a mutation's `cause`:
  ///
  /// ```json
  /// "cause":{"stream":"taskService","from":{"reactor":2,"action":7,"effect":3}}
  /// ```
  ///
  /// `action` is absent when the reactor was not handling an action (a stream element it
  /// received, its pipeline being built); `effect` when the action's `mutate`, `reduce` or an
  /// observer ran synchronously rather than inside an async effect.
  public struct ReactorOrigin: Hashable, Sendable {
    /// The reactor's id in the session.
    public var reactor: Int
    /// The id, in that reactor, of the action being handled, if any.
    public var action: Int?
    /// The id, in that reactor, of the async effect that was running, if any.
    public var effect: Int?

    /// An origin.
    /// - Parameters:
    ///   - reactor: The reactor's id in the session.
    ///   - action: The action it was handling.
    ///   - effect: The async effect of that action that was running.
    public init(reactor: Int, action: Int? = nil, effect: Int? = nil) {
      self.reactor = reactor
      self.action = action
      self.effect = effect
    }
  }
}

extension TraceEvent.ReactorOrigin: CustomStringConvertible {
  /// `reactor 2, action 7, effect 3`.
  public var description: String {
    "reactor \(reactor)" + (action.map { ", action \($0)" } ?? "")
      + (effect.map { ", effect \($0)" } ?? "")
  }
}

extension TraceEvent.ReactorOrigin {
  /// The origin as its JSON object: `{"reactor":2,"action":7,"effect":3}`.
  var json: JSONValue {
    var object = JSONObject()
    object["reactor"] = .int(Int64(reactor))
    if let action { object["action"] = .int(Int64(action)) }
    if let effect { object["effect"] = .int(Int64(effect)) }
    return .object(object)
  }

  /// Reads an origin from the `from` member of an action or a cause.
  /// - Throws: What is missing or malformed.
  init(json: JSONValue) throws(TraceFormatError) {
    let fields = try JSONFields(json, what: "'from'")
    self.init(
      reactor: try fields.integer("reactor", minimum: 1),
      action: try fields.optionalInteger("action", minimum: 1),
      effect: try fields.optionalInteger("effect", minimum: 1))
    if effect != nil, action == nil {
      throw TraceFormatError("'from' names an effect without its action")
    }
  }
}
