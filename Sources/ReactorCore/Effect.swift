/// The work one action starts: mutations known now, async work that emits mutations over
/// time, cancellation of earlier work, or a combination of these.
///
/// `mutate(action:)` returns an effect. Mutations known now (``just(_:)``, ``sequence(_:)``)
/// are reduced before ``Reactor/send(_:)`` returns. Async work (``run(id:cancelInFlight:name:_:)``)
/// starts immediately on the main actor: mutations it sends before its first suspension are
/// reduced before `send` returns too, and later ones as they arrive, interleaved with other
/// effects in arrival order.
///
/// ```swift
/// func mutate(action: Action) -> Effect<Mutation> {
///   switch action {
///   case .updateQuery(let query):
///     return .concat(
///       .just(.setQuery(query)),
///       .run(id: "search", cancelInFlight: true) { [api] send in
///         send(.setRepos(try await api.search(query)))
///       }
///     )
///   case .reset:
///     return .merge(.cancel(id: "search"), .just(.clear))
///   }
/// }
/// ```
@MainActor
public struct Effect<Mutation: Sendable> {
  /// An async body: it runs on the main actor and emits mutations through `send`.
  public typealias Body = @MainActor (_ send: Send<Mutation>) async throws -> Void

  @usableFromInline
  enum Operation {
    case none
    case just(Mutation)
    case sequence([Mutation])
    case run(Run)
    case cancel(AnyHashable)
    case merge([Effect])
    case concat([Effect])
  }

  @usableFromInline
  struct Run {
    var id: AnyHashable?
    var cancelInFlight: Bool
    var name: String?
    var body: Body
  }

  @usableFromInline let operation: Operation

  @inlinable
  init(_ operation: Operation) {
    self.operation = operation
  }

  /// An effect that does nothing.
  @inlinable
  public static var none: Effect { Effect(.none) }

  /// An effect that emits one mutation now.
  /// - Parameter mutation: The mutation to reduce before `send` returns.
  /// - Returns: The effect.
  @inlinable
  public static func just(_ mutation: Mutation) -> Effect { Effect(.just(mutation)) }

  /// An effect that emits several mutations now, in order.
  /// - Parameter mutations: The mutations to reduce, one after another, before `send` returns.
  /// - Returns: The effect.
  @inlinable
  public static func sequence(_ mutations: [Mutation]) -> Effect { Effect(.sequence(mutations)) }

  /// An effect that runs async work on the main actor, emitting any number of mutations.
  ///
  /// The body starts at once: what it sends before its first suspension is reduced before
  /// `send` returns. Take delays from an injected clock so tests control time. A body that
  /// throws ends only itself; the mutations it already sent stay applied. After the effect is
  /// cancelled, whatever it still sends is dropped.
  /// - Parameters:
  ///   - id: Identifies the work so that ``cancel(id:)`` or a later run with
  ///     `cancelInFlight` can cancel it.
  ///   - cancelInFlight: Cancels running work with the same `id` before starting (the latest
  ///     search wins, as in search-as-you-type).
  ///   - name: A readable name for traces.
  ///   - body: The work. Call `send(mutation)` to emit a mutation.
  /// - Returns: The effect.
  public static func run(
    id: (some Hashable & Sendable)? = String?.none,
    cancelInFlight: Bool = false,
    name: String? = nil,
    _ body: @escaping Body
  ) -> Effect {
    Effect(
      .run(
        Run(id: id.map(AnyHashable.init), cancelInFlight: cancelInFlight, name: name, body: body)
      ))
  }

  /// An effect that cancels running work started with `id`.
  /// - Parameter id: The identifier given to ``run(id:cancelInFlight:name:_:)``.
  /// - Returns: The effect.
  public static func cancel(id: some Hashable & Sendable) -> Effect {
    Effect(.cancel(AnyHashable(id)))
  }

  /// An effect that runs several effects at the same time; their mutations interleave in
  /// arrival order.
  /// - Parameter effects: The effects to start, in this order.
  /// - Returns: The combined effect.
  public static func merge(_ effects: Effect...) -> Effect { Effect(.merge(effects)) }

  /// An effect that runs several effects at the same time; their mutations interleave in
  /// arrival order.
  /// - Parameter effects: The effects to start, in this order.
  /// - Returns: The combined effect.
  public static func merge(_ effects: [Effect]) -> Effect { Effect(.merge(effects)) }

  /// An effect that runs several effects one after another, each starting when the previous
  /// one has finished, failed or been cancelled.
  /// - Parameter effects: The effects to run, in order.
  /// - Returns: The combined effect.
  public static func concat(_ effects: Effect...) -> Effect { Effect(.concat(effects)) }

  /// An effect that runs several effects one after another, each starting when the previous
  /// one has finished, failed or been cancelled.
  /// - Parameter effects: The effects to run, in order.
  /// - Returns: The combined effect.
  public static func concat(_ effects: [Effect]) -> Effect { Effect(.concat(effects)) }

  /// Transforms every mutation this effect emits.
  /// - Parameter transform: Maps a mutation of this effect to a mutation of another type.
  /// - Returns: An effect that does the same work and emits the transformed mutations.
  public func map<T: Sendable>(_ transform: @escaping @MainActor (Mutation) -> T) -> Effect<T> {
    switch operation {
    case .none: return .none
    case .just(let mutation): return .just(transform(mutation))
    case .sequence(let mutations): return .sequence(mutations.map(transform))
    case .cancel(let id): return Effect<T>(.cancel(id))
    case .merge(let effects): return .merge(effects.map { $0.map(transform) })
    case .concat(let effects): return .concat(effects.map { $0.map(transform) })
    case .run(let run):
      let body = run.body
      return Effect<T>(
        .run(
          Effect<T>.Run(id: run.id, cancelInFlight: run.cancelInFlight, name: run.name) { send in
            try await body(Send { send(transform($0)) })
          }))
    }
  }

  /// Whether the effect completes synchronously (it contains no async work).
  @usableFromInline
  var isSynchronous: Bool {
    switch operation {
    case .none, .just, .sequence, .cancel: return true
    case .run: return false
    case .merge(let effects), .concat(let effects): return effects.allSatisfy(\.isSynchronous)
    }
  }
}
