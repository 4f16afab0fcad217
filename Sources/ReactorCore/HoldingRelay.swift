/// A relay that holds its latest value and gives it to every new subscriber first
/// (RxRelay's `BehaviorRelay`): the current user, a setting, what a screen shares.
///
/// ```swift
/// final class SessionService {
///   let currentUser = HoldingRelay<User?>(nil)
///   func logIn(_ user: User) { currentUser.accept(user) }
/// }
///
/// // In the reactor: the current user now, then every change.
/// func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
///   mutation.merge(session.currentUser.flow(name: "currentUser").map { .setUser($0) })
/// }
/// ```
///
/// A reactor's pipeline receives the held value once it is built, after its initial state,
/// as a value of the stream `name`; later values arrive synchronously as ``accept(_:)`` is
/// called, as a ``Relay``'s do.
@MainActor
public final class HoldingRelay<Element: Sendable> {
  /// The latest value: the initial one until ``accept(_:)`` is called.
  public private(set) var value: Element
  private let relay = Relay<Element>()

  /// A relay holding `value`.
  /// - Parameter value: The value new subscribers get until another is accepted.
  public init(_ value: Element) {
    self.value = value
  }

  /// Holds `element` and delivers it to every current subscriber, in subscription order,
  /// before returning.
  /// - Parameter element: The new value.
  public func accept(_ element: Element) {
    value = element
    relay.accept(element)
  }

  /// A flow of the held value, then of every value accepted from now on, attributed to
  /// `name` in traces.
  /// - Parameter name: The name traces attribute these values to.
  /// - Returns: A flow to merge in a `transform` hook.
  public func flow(name: String) -> Flow<Element> {
    let values = relay.flow(name: name)
    return Flow { [weak self] scope, sink in
      guard let self else { return }
      values.connect(scope, sink)
      let held = value
      scope.deliverOnceConnected { sink(held, .stream(name)) }
    }
  }

  /// Calls `handler` with the held value now, then with every value accepted until the
  /// subscription is cancelled.
  /// - Parameter handler: Receives each value on the main actor.
  /// - Returns: The subscription; cancelling or releasing it stops delivery.
  public func observe(_ handler: @escaping @MainActor (Element) -> Void) -> Subscription {
    handler(value)
    return relay.observe(handler)
  }

  /// The number of current subscribers.
  public var subscriberCount: Int { relay.subscriberCount }
}
