/// A state value that observers receive once per assignment: a one-shot event such as an
/// alert message.
///
/// Every assignment counts, even of an equal value, so the same alert can be shown twice.
/// Building a new `State` is not an assignment. Observe it with ``Reactor/pulse(_:)``:
///
/// ```swift
/// struct State {
///   @Pulse var alertMessage: String?
/// }
///
/// reactor.pulse(\.$alertMessage).observe { message in
///   if let message { showAlert(message) }
/// }.store(in: subscriptions)
/// ```
@propertyWrapper
public struct Pulse<Value> {
  /// The current value; assigning it, even the same value, counts as a new pulse.
  public var value: Value {
    didSet { valueUpdatedCount &+= 1 }
  }

  /// How many times ``value`` has been assigned; wraps to zero after `UInt.max`.
  public internal(set) var valueUpdatedCount: UInt

  /// Creates a pulse that has not been assigned yet.
  /// - Parameter wrappedValue: The initial value.
  public init(wrappedValue: Value) {
    self.value = wrappedValue
    self.valueUpdatedCount = 0
  }

  /// The current value; assigning it counts as a new pulse.
  public var wrappedValue: Value {
    get { value }
    set { value = newValue }
  }

  /// The pulse itself, with its counter: `state.$alertMessage`.
  public var projectedValue: Pulse<Value> {
    get { self }
    set { self = newValue }
  }
}

extension Pulse: Sendable where Value: Sendable {}

extension Pulse: Equatable where Value: Equatable {}

extension Pulse: Hashable where Value: Hashable {}

extension Pulse: Codable where Value: Codable {}
