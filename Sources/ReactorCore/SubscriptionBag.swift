/// Owns subscriptions and tasks, and cancels all of them at once (RxSwift's `DisposeBag`).
///
/// A ``View`` empties its bag whenever its reactor is reassigned.
@MainActor
public final class SubscriptionBag {
  private var subscriptions: [Subscription] = []
  private var tasks: [Task<Void, Never>] = []

  /// Creates an empty bag.
  public init() {}

  /// The number of subscriptions and tasks the bag holds.
  public var count: Int { subscriptions.count + tasks.count }

  /// Adds a subscription, cancelled with the bag.
  /// - Parameter subscription: The subscription to keep alive.
  public func insert(_ subscription: Subscription) {
    subscriptions.append(subscription)
  }

  /// Adds a task, cancelled with the bag.
  /// - Parameter task: The task to cancel when the bag is emptied or released.
  public func insert(_ task: Task<Void, Never>) {
    tasks.append(task)
  }

  /// Cancels and removes everything the bag holds.
  public func cancelAll() {
    let subscriptions = self.subscriptions
    let tasks = self.tasks
    self.subscriptions.removeAll()
    self.tasks.removeAll()
    for subscription in subscriptions { subscription.cancel() }
    for task in tasks { task.cancel() }
  }

  isolated deinit {
    cancelAll()
  }
}
