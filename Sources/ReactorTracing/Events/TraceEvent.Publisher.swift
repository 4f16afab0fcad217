import ReactorJSON

extension TraceEvent {
  /// The action of the recorded reactor itself, and the async effect of it, that published
  /// the stream element a mutation was made from.
  ///
  /// A like button's effect that reports the like on an app-wide event stream, which the
  /// same reactor merges in `transform(mutation:)`: its mutation arrives through the stream,
  /// but the action caused it. In the file it is the `publishedBy` member of a stream cause:
  ///
  /// ```json
  /// "cause":{"stream":"likes","publishedBy":{"action":3,"effect":2}}
  /// ```
  ///
  /// A recorder writes it only when it knows the publisher (the Swift recorders always do);
  /// without it, a stream's mutation is credited to the stream. See
  /// ``TraceEvent/Mutation/attributedCause(reactor:)``.
  public struct Publisher: Hashable, Sendable {
    /// The id of the action whose handling published the element.
    public var action: Int
    /// The id of the async effect of that action that published it; `nil` when `mutate`,
    /// `reduce` or an observer published it synchronously.
    public var effect: Int?

    /// A publisher.
    /// - Parameters:
    ///   - action: The action whose handling published the element.
    ///   - effect: The async effect of it that published it, if any.
    public init(action: Int, effect: Int? = nil) {
      self.action = action
      self.effect = effect
    }

    /// The cause the mutation is credited to: the effect, or the action itself.
    public var cause: TraceEvent.Cause {
      effect.map { .effect($0, action: action) } ?? .action(action)
    }
  }
}

extension TraceEvent.Publisher: CustomStringConvertible {
  /// `action 3, effect 2`.
  public var description: String {
    "action \(action)" + (effect.map { ", effect \($0)" } ?? "")
  }
}

extension TraceEvent.Publisher {
  /// The publisher as its JSON object: `{"action":3,"effect":2}`.
  var json: JSONValue {
    var object = JSONObject()
    object["action"] = .int(Int64(action))
    if let effect { object["effect"] = .int(Int64(effect)) }
    return .object(object)
  }

  /// Reads a publisher from the `publishedBy` member of a stream cause.
  /// - Throws: What is missing or malformed.
  init(json: JSONValue) throws(TraceFormatError) {
    let fields = try JSONFields(json, what: "'publishedBy'")
    self.init(
      action: try fields.integer("action", minimum: 1),
      effect: try fields.optionalInteger("effect", minimum: 1))
  }
}

extension TraceEvent.Mutation {
  /// The cause the mutation is credited to, by the attribution rule of `docs/semantics.md`.
  ///
  /// It is ``cause``, except for a stream's mutation whose element this reactor's own
  /// action or effect published: that action or effect, as if it had sent the mutation
  /// itself. The trace says so with ``publisher``, or, in a session, with a ``from`` that
  /// names the mutation's own reactor. Coverage, transition graphs, summaries and generated
  /// tests credit mutations this way, as exploration does.
  /// - Parameter reactor: In a session, the id of the reactor whose mutation it is; `nil`
  ///   for a trace of one reactor.
  /// - Returns: The credited cause.
  public func attributedCause(reactor: Int? = nil) -> TraceEvent.Cause {
    guard case .stream = cause else { return cause }
    if let publisher { return publisher.cause }
    if let reactor, let from, from.reactor == reactor, let action = from.action {
      return TraceEvent.Publisher(action: action, effect: from.effect).cause
    }
    return cause
  }
}
