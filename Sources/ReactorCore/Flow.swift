/// A stream of values pushed synchronously on the main actor: what the `transform` hooks of a
/// ``Reactor`` receive and return.
///
/// A flow is a recipe. The runtime connects it once, when the pipeline is built; after that,
/// every value travels through the operators synchronously, so an action sent with
/// ``Reactor/send(_:)`` still reaches `reduce` before `send` returns. Operators that wait
/// (``debounce(for:clock:)``) or sources that arrive later (``merge(_:name:)``) run on the
/// main actor as tasks owned by the reactor and cancelled with it.
///
/// ```swift
/// func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
///   mutation.merge(taskService.events.flow(name: "taskService").map { .apply($0) })
/// }
///
/// func transform(action: Flow<Action>) -> Flow<Action> {
///   action.debounce(for: .milliseconds(300), clock: clock)
/// }
/// ```
@MainActor
public struct Flow<Element: Sendable> {
  /// Receives one value and where it came from.
  @usableFromInline
  typealias Sink = @MainActor (Element, Origin) -> Void

  /// Connects the recipe: routes its values into `sink`, registering tasks with `scope`.
  @usableFromInline
  let connect: @MainActor (_ scope: FlowScope, _ sink: @escaping Sink) -> Void

  /// The runtime whose pipeline input this flow is, unchanged; `nil` for any other flow.
  ///
  /// A hook that returns its input unchanged (the default) lets the runtime pass values
  /// straight on instead of through the flow's closures.
  @usableFromInline
  let input: ObjectIdentifier?

  @usableFromInline
  init(connect: @escaping @MainActor (_ scope: FlowScope, _ sink: @escaping Sink) -> Void) {
    self.connect = connect
    self.input = nil
  }

  @usableFromInline
  init(
    input: ObjectIdentifier,
    connect: @escaping @MainActor (_ scope: FlowScope, _ sink: @escaping Sink) -> Void
  ) {
    self.connect = connect
    self.input = input
  }

  /// A flow that emits nothing.
  public static var empty: Flow { Flow { _, _ in } }

  /// A flow of the values of an async sequence, consumed on the main actor.
  ///
  /// When the sequence ends or throws, only this source stops; the reactor keeps working,
  /// and the end is reported to the reactor's monitor (and so to traces) under `name`.
  /// - Parameters:
  ///   - sequence: The external source, for example a service's event stream.
  ///   - name: The name traces attribute its values to.
  public init<S: AsyncSequence & Sendable>(_ sequence: S, name: String) where S.Element == Element {
    self.init { scope, sink in
      scope.spawn { @MainActor [weak scope] in
        do {
          for try await element in sequence {
            guard let scope, !scope.isClosed else { return }
            scope.deliver { sink(element, .stream(name)) }
          }
          scope?.streamDidEnd(name, nil)
        } catch {
          if !(error is CancellationError) { scope?.streamDidEnd(name, error) }
        }
      }
    }
  }

  /// Transforms every value.
  /// - Parameter transform: Maps a value; runs on the main actor.
  /// - Returns: A flow of the transformed values.
  public func map<T: Sendable>(_ transform: @escaping @MainActor (Element) -> T) -> Flow<T> {
    let connect = self.connect
    return Flow<T> { scope, sink in
      connect(scope) { element, origin in sink(transform(element), origin) }
    }
  }

  /// Keeps the values that satisfy a predicate.
  /// - Parameter isIncluded: Returns `true` for the values to keep.
  /// - Returns: A flow of the kept values.
  public func filter(_ isIncluded: @escaping @MainActor (Element) -> Bool) -> Flow {
    let connect = self.connect
    return Flow { scope, sink in
      connect(scope) { element, origin in
        if isIncluded(element) { sink(element, origin) }
      }
    }
  }

  /// Transforms every value and drops the `nil` results.
  /// - Parameter transform: Maps a value, or returns `nil` to drop it.
  /// - Returns: A flow of the non-`nil` results.
  public func compactMap<T: Sendable>(_ transform: @escaping @MainActor (Element) -> T?) -> Flow<T>
  {
    let connect = self.connect
    return Flow<T> { scope, sink in
      connect(scope) { element, origin in
        if let value = transform(element) { sink(value, origin) }
      }
    }
  }

  /// Transforms every value into any number of values, emitted in order with the origin of
  /// the value they came from: one event of a service giving two mutations.
  ///
  /// ```swift
  /// mutation.merge(
  ///   session.events.flow(name: "session").flatMap { event in
  ///     [.setUser(event.user), .setLoggedIn(event.user != nil)]
  ///   })
  /// ```
  ///
  /// Unlike RxSwift's `flatMap`, the values are known when the value arrives: a flow has no
  /// inner streams. Work that waits belongs in an effect (`Effect.run`).
  /// - Parameter transform: Maps a value to the values to emit; runs on the main actor.
  /// - Returns: A flow of the values of every result, in order.
  public func flatMap<S: Sequence>(_ transform: @escaping @MainActor (Element) -> S) -> Flow<
    S.Element
  > where S.Element: Sendable {
    let connect = self.connect
    return Flow<S.Element> { scope, sink in
      connect(scope) { element, origin in
        for value in transform(element) { sink(value, origin) }
      }
    }
  }

  /// Emits `values` first, when the pipeline is built, then this flow's values.
  ///
  /// The values are delivered once the reactor's pipeline is connected (after its initial
  /// state), attributed to the stream `name` in traces, as RxSwift's `startWith` emits them
  /// on subscription.
  /// - Parameters:
  ///   - values: The values to emit first.
  ///   - name: The name traces attribute them to.
  /// - Returns: A flow that starts with `values`.
  public func startWith(_ values: Element..., name: String = "startWith") -> Flow {
    let connect = self.connect
    return Flow { scope, sink in
      scope.deliverOnceConnected {
        for value in values { sink(value, .stream(name)) }
      }
      connect(scope, sink)
    }
  }

  /// Merges other flows into this one; values arrive in the order they are emitted.
  /// - Parameter others: The flows to merge.
  /// - Returns: A flow of the values of this flow and of `others`.
  public func merge(_ others: Flow...) -> Flow {
    let connects = [connect] + others.map(\.connect)
    return Flow { scope, sink in
      for connect in connects { connect(scope, sink) }
    }
  }

  /// Merges the values of an async sequence, consumed on the main actor.
  /// - Parameters:
  ///   - sequence: The external source.
  ///   - name: The name traces attribute its values to.
  /// - Returns: A flow of the values of this flow and of `sequence`.
  public func merge<S: AsyncSequence & Sendable>(_ sequence: S, name: String) -> Flow
  where S.Element == Element {
    merge(Flow(sequence, name: name))
  }

  /// Emits a value only once `duration` has passed on `clock` without another value.
  ///
  /// Cancelled with the reactor. On a `TestClock` the timing is under the test's control.
  /// - Parameters:
  ///   - duration: How long the flow must be quiet before the latest value is emitted.
  ///   - clock: The clock to measure it with; inject it so tests control time.
  /// - Returns: The debounced flow.
  public func debounce<C: Clock>(for duration: C.Duration, clock: C) -> Flow
  where C.Duration: Sendable {
    let connect = self.connect
    return Flow { scope, sink in
      var pending: Task<Void, Never>?
      connect(scope) { element, origin in
        pending?.cancel()
        pending = scope.spawn { @MainActor [weak scope] in
          do {
            try await clock.sleep(for: duration)
          } catch {
            return
          }
          scope?.deliver { sink(element, origin) }
        }
      }
    }
  }
}
