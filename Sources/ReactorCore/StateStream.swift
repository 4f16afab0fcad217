/// A stream of states (or of values derived from them) that replays the latest value to each
/// new observer and then delivers every new one, in order.
///
/// Observe it synchronously on the main actor, which is how bindings should use it (every
/// state, in order, with no task hop), or iterate it as an `AsyncSequence`:
///
/// ```swift
/// reactor.state.map(\.isLoading).removeDuplicates()
///   .observe { indicator.isAnimating = $0 }
///   .store(in: subscriptions)
///
/// for await state in reactor.state { print(state.value) }
/// ```
public struct StateStream<Value: Sendable>: Sendable {
  /// Registers an observer (its value handler and its end handler) and returns its
  /// subscription.
  @usableFromInline
  typealias Subscribe =
    @MainActor (
      _ receive: @escaping @MainActor (Value) -> Void, _ finish: @escaping @MainActor () -> Void
    ) -> Subscription

  @usableFromInline let subscribe: Subscribe

  @usableFromInline
  init(subscribe: @escaping Subscribe) {
    self.subscribe = subscribe
  }

  /// Calls `handler` now with the latest value, then with every new value, on the main actor.
  ///
  /// An action that `handler` sends is queued and starts once the action being processed
  /// has had every mutation it produced synchronously delivered to every observer.
  /// - Parameter handler: Receives each value.
  /// - Returns: The subscription; cancelling or releasing it stops delivery.
  @MainActor
  public func observe(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
    subscribe(handler, {})
  }

  /// Transforms every value.
  /// - Parameter transform: Maps a value; runs on the main actor.
  /// - Returns: A stream of the transformed values.
  @inlinable
  public func map<T: Sendable>(_ transform: @escaping @MainActor (Value) -> T) -> StateStream<T> {
    let subscribe = self.subscribe
    return StateStream<T> { receive, finish in subscribe({ receive(transform($0)) }, finish) }
  }

  /// Drops values equal to the previous one (Rx's `distinctUntilChanged`).
  ///
  /// The runtime never deduplicates states itself: every mutation produces a state.
  /// - Parameter isDuplicate: Returns `true` when the second value repeats the first.
  /// - Returns: A stream without consecutive duplicates.
  @inlinable
  public func removeDuplicates(
    by isDuplicate: @escaping @MainActor (Value, Value) -> Bool
  ) -> StateStream {
    let subscribe = self.subscribe
    return StateStream { receive, finish in
      var last: Value?
      return subscribe(
        { value in
          if let previous = last, isDuplicate(previous, value) { return }
          last = value
          receive(value)
        }, finish)
    }
  }

  /// A stream subscribed now, buffering every value until it is consumed.
  ///
  /// Unlike iterating the stream itself, which subscribes when iteration starts, this
  /// subscribes immediately, so no value sent after this call is missed. The stream ends when
  /// the reactor is released.
  @MainActor
  public var values: AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    let subscription = subscribe({ continuation.yield($0) }, { continuation.finish() })
    continuation.onTermination = { _ in
      Task { @MainActor in subscription.cancel() }
    }
    return stream
  }
}

extension StateStream where Value: Equatable {
  /// Drops values equal to the previous one (Rx's `distinctUntilChanged`).
  /// - Returns: A stream without consecutive duplicates.
  @inlinable
  public func removeDuplicates() -> StateStream {
    removeDuplicates(by: ==)
  }
}

extension StateStream: AsyncSequence {
  /// Iterates the stream; it subscribes when the first value is requested.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let stream: StateStream
    var iterator: AsyncStream<Value>.AsyncIterator?

    /// The next value, or `nil` once the reactor is released or the task is cancelled.
    public mutating func next() async -> Value? {
      if iterator == nil {
        let stream = self.stream
        iterator = await MainActor.run { stream.values }.makeAsyncIterator()
      }
      return await iterator?.next()
    }
  }

  /// Creates an iterator that subscribes on its first `next()`.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(stream: self, iterator: nil)
  }
}
