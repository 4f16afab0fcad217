/// A live observation that ends when cancelled or released.
///
/// Keep it for as long as you want updates, usually in a ``SubscriptionBag``:
///
/// ```swift
/// reactor.state.map(\.value).observe { label.text = "\($0)" }.store(in: subscriptions)
/// ```
@MainActor
public final class Subscription {
  private var onCancel: (@MainActor () -> Void)?

  /// Creates a subscription that runs `onCancel` once, when cancelled or released.
  /// - Parameter onCancel: Stops the observation.
  public init(_ onCancel: @escaping @MainActor () -> Void) {
    self.onCancel = onCancel
  }

  /// Whether the subscription has been cancelled.
  public var isCancelled: Bool { onCancel == nil }

  /// Stops the observation.
  ///
  /// Calling it again does nothing.
  public func cancel() {
    let onCancel = self.onCancel
    self.onCancel = nil
    onCancel?()
  }

  /// Keeps this subscription alive until `bag` is emptied or released.
  /// - Parameter bag: The bag that owns the subscription.
  public func store(in bag: SubscriptionBag) {
    bag.insert(self)
  }

  isolated deinit {
    cancel()
  }
}
