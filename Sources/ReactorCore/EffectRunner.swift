/// Decides what runs for each asynchronous effect a reactor starts: the hook through which a
/// replay plays an effect back from a recording instead of running its body.
///
/// Attach one with ``ReactorRuntime/effectRunner``; the reactor's code does not change. With
/// none attached (the default), the runtime checks one optional per effect started and runs
/// every body as written. All calls arrive on the main actor.
///
/// ```swift
/// final class IdleEffects<Mutation: Sendable>: EffectRunner {
///   func body(
///     for effect: EffectRun, running body: @escaping Effect<Mutation>.Body
///   ) -> Effect<Mutation>.Body {
///     { _ in }  // ends at once, without calling a service
///   }
///   func effectWillCancel(_ effect: Int, byAction action: Int) {}
/// }
/// ```
@MainActor
public protocol EffectRunner<Mutation>: AnyObject {
  /// The reactor's mutation type.
  associatedtype Mutation: Sendable

  /// The body to run for an effect that `mutate` just started.
  ///
  /// Called after the runtime has cancelled what `cancelInFlight` cancels and before the
  /// returned body starts.
  /// - Parameters:
  ///   - effect: What `mutate` asked for, and the effect's and its action's ids.
  ///   - body: The body the reactor's code gave.
  /// - Returns: The body to run instead, or `body` itself.
  func body(
    for effect: EffectRun, running body: @escaping Effect<Mutation>.Body
  ) -> Effect<Mutation>.Body

  /// An effect in flight is being cancelled by an action's effect (``Effect/cancel(id:)``, or
  /// a run with `cancelInFlight`).
  ///
  /// Called before the effect's task is cancelled; not called when the reactor goes away.
  /// - Parameters:
  ///   - effect: The id of the effect being cancelled.
  ///   - action: The id of the action whose effect cancels it.
  func effectWillCancel(_ effect: Int, byAction action: Int)
}

/// An asynchronous effect as `mutate` asked for it: what an ``EffectRunner`` is told about
/// each effect started.
///
/// Not `Sendable`: its `id` is an `AnyHashable`. It is handed over on the main actor only.
public struct EffectRun: Hashable {
  /// The effect's sequence number in this reactor, starting at 1 (the id a trace records).
  public var effect: Int
  /// The id of the action whose `mutate` started it.
  public var action: Int
  /// The name given to ``Effect/run(id:cancelInFlight:name:_:)``.
  public var name: String?
  /// The identifier given to ``Effect/run(id:cancelInFlight:name:_:)``, which
  /// ``Effect/cancel(id:)`` and `cancelInFlight` match.
  public var id: AnyHashable?
  /// Whether starting it cancelled running work with the same `id`.
  public var cancelsInFlight: Bool

  /// An effect as `mutate` asked for it.
  public init(effect: Int, action: Int, name: String?, id: AnyHashable?, cancelsInFlight: Bool) {
    self.effect = effect
    self.action = action
    self.name = name
    self.id = id
    self.cancelsInFlight = cancelsInFlight
  }
}
