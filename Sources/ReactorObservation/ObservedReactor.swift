public import Observation
public import ReactorCore

/// A reactor seen through Swift's Observation: code that reads a field of its state is
/// invalidated when that field changes, and not when another field does.
///
/// ReactorKit's `ObservedReactor` with its `@ObservableState` macro, written without a macro:
/// each state field read through dynamic member lookup (`observed.isLoading`) is registered
/// with an `ObservationRegistrar` under its own key path, and each new state notifies only
/// the fields that were read and whose values changed (`Equatable` fields are compared; a
/// field that is not `Equatable` counts as changed by every new state).
///
/// ```swift
/// let observed = ObservedReactor(CounterReactor())
/// // In a SwiftUI body, or inside withObservationTracking:
/// Text("\(observed.value)")           // re-evaluated when `value` changes only
/// Button("+") { observed.send(.increase) }
/// ```
///
/// The wrapper keeps the reactor alive; the reactor does not keep the wrapper (its state
/// observer holds it weakly), so releasing the wrapper releases both. With the reactor's stub
/// enabled (previews, view tests), `send` records into the stub and `stub.state` drives the
/// observed fields.
@MainActor
@dynamicMemberLookup
public final class ObservedReactor<R: Reactor>: Observable {
  /// The reactor whose state this wrapper observes.
  public let reactor: R

  private let registrar = ObservationRegistrar()
  private var current: R.State
  /// Every field read so far, by its key path into the state.
  private var fields: [AnyKeyPath: ObservedField<R.State>] = [:]
  private var subscription: Subscription?

  /// Observes `reactor`'s state from now on (building its pipeline, unless it is stubbed).
  /// - Parameter reactor: The reactor to observe; the wrapper keeps it alive.
  public init(_ reactor: R) {
    self.reactor = reactor
    self.current = reactor.currentState
    subscription = reactor.state.observe { [weak self] state in self?.update(to: state) }
  }

  /// The whole current state; reading it is invalidated by every new state.
  ///
  /// Prefer reading fields (`observed.isLoading`), which are invalidated only by their own
  /// changes.
  public var state: R.State {
    registrar.access(self, keyPath: \.state)
    return current
  }

  /// A field of the current state, invalidated when its value changes.
  public subscript<Value: Equatable>(dynamicMember keyPath: KeyPath<R.State, Value>) -> Value {
    read(keyPath) { old, new in old[keyPath: keyPath] != new[keyPath: keyPath] }
  }

  /// A field of the current state that is not `Equatable`, invalidated by every new state.
  @_disfavoredOverload
  public subscript<Value>(dynamicMember keyPath: KeyPath<R.State, Value>) -> Value {
    read(keyPath) { _, _ in true }
  }

  /// The value of a ``Pulse`` of the state, invalidated once per assignment (equal values
  /// included) and not by mutations that leave it alone.
  /// - Parameter keyPath: The pulse's projected value, such as `\.$alertMessage`.
  /// - Returns: The pulse's latest value.
  public func pulse<Value>(_ keyPath: KeyPath<R.State, Pulse<Value>>) -> Value {
    read(keyPath) { old, new in
      old[keyPath: keyPath].valueUpdatedCount != new[keyPath: keyPath].valueUpdatedCount
    }.value
  }

  /// Sends an action to the reactor (to its stub, when the stub is enabled).
  /// - Parameter action: What the user did.
  public func send(_ action: R.Action) {
    reactor.send(action)
  }

  /// Reads a field and registers the access under the field's own key path.
  ///
  /// - Parameters:
  ///   - keyPath: The field in the state.
  ///   - hasChanged: Whether the field differs between two states; only kept from the first
  ///     read of this key path.
  /// - Returns: The field's value in the current state.
  func read<Value>(
    _ keyPath: KeyPath<R.State, Value>, hasChanged: @escaping (R.State, R.State) -> Bool
  ) -> Value {
    let field: ObservedField<R.State>
    if let known = fields[keyPath] {
      field = known
    } else {
      field = ObservedField(id: fields.count, hasChanged: hasChanged)
      fields[keyPath] = field
    }
    registrar.access(self, keyPath: \.[field: field.id])
    return current[keyPath: keyPath]
  }

  /// The key path observation tracks a field under: one per field, told apart by its id.
  subscript(field id: Int) -> Void { () }

  /// Takes a new state, notifying the whole state and every read field whose value changed.
  private func update(to state: R.State) {
    let previous = current
    let changed = fields.values.filter { $0.hasChanged(previous, state) }
    registrar.willSet(self, keyPath: \.state)
    for field in changed { registrar.willSet(self, keyPath: \.[field: field.id]) }
    current = state
    for field in changed { registrar.didSet(self, keyPath: \.[field: field.id]) }
    registrar.didSet(self, keyPath: \.state)
  }
}
