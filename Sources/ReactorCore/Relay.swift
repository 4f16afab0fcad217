/// A main-actor source of events that any number of reactors can merge, delivered
/// synchronously in the order they are accepted (RxRelay's `PublishRelay`).
///
/// Services publish through a relay so that several reactors stay in sync, as in
/// ReactorKit's TaskList example:
///
/// ```swift
/// final class TaskService {
///   let events = Relay<TaskEvent>()
///   func markDone(_ id: Task.ID) { ...; events.accept(.markedDone(id)) }
/// }
///
/// // In the reactor:
/// func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
///   mutation.merge(service.events.flow(name: "taskService").map { .apply($0) })
/// }
/// ```
@MainActor
public final class Relay<Element: Sendable> {
  private var subscribers: [(id: Int, handler: @MainActor (Element) -> Void)] = []
  private var nextID = 0

  /// Creates a relay with no subscribers.
  public init() {}

  /// Delivers `element` to every current subscriber, in subscription order, before returning.
  ///
  /// In a recorded session, what runs now (``ReactorActivity/current``) is the element's
  /// origin: a reactor that receives it records it as `from`.
  /// - Parameter element: The event to publish.
  public func accept(_ element: Element) {
    ReactorActivity.delivering(ReactorActivity.current) {
      for subscriber in subscribers { subscriber.handler(element) }
    }
  }

  /// A flow of the events accepted from now on, attributed to `name` in traces.
  ///
  /// The subscription lasts as long as the reactor whose pipeline connects the flow.
  /// - Parameter name: The name traces attribute these events to.
  /// - Returns: A flow to merge in a `transform` hook.
  public func flow(name: String) -> Flow<Element> {
    Flow { [weak self] scope, sink in
      guard let self else { return }
      let id = self.subscribe { [weak scope] element in
        scope?.deliver { sink(element, .stream(name)) }
      }
      scope.onClose { [weak self] in self?.unsubscribe(id) }
    }
  }

  /// Calls `handler` with every event accepted until the subscription is cancelled.
  /// - Parameter handler: Receives each event on the main actor.
  /// - Returns: The subscription; cancelling or releasing it stops delivery.
  public func observe(_ handler: @escaping @MainActor (Element) -> Void) -> Subscription {
    let id = subscribe(handler)
    return Subscription { [weak self] in self?.unsubscribe(id) }
  }

  /// The number of current subscribers.
  public var subscriberCount: Int { subscribers.count }

  private func subscribe(_ handler: @escaping @MainActor (Element) -> Void) -> Int {
    nextID += 1
    subscribers.append((nextID, handler))
    return nextID
  }

  private func unsubscribe(_ id: Int) {
    subscribers.removeAll { $0.id == id }
  }
}
