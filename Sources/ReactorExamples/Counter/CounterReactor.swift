public import ReactorCore

/// The Counter from ReactorKit's examples and the project's seeds.
///
/// `increase` shows a loading indicator, changes the value 500 ms later on the injected clock
/// and hides the indicator; `decrease` does the same at once. When the value is at its limit,
/// `increase` sets an alert pulse instead.
public final class CounterReactor: Reactor {
  /// What the user can do.
  public enum Action: Codable, Equatable, Sendable {
    /// Adds one, after half a second.
    case increase
    /// Subtracts one.
    case decrease
  }

  /// The smallest changes of the state.
  public enum Mutation: Codable, Equatable, Sendable {
    /// Adds one to the value.
    case increaseValue
    /// Subtracts one from the value.
    case decreaseValue
    /// Shows or hides the loading indicator.
    case setLoading(Bool)
    /// Shows an alert.
    case setAlert(String)
  }

  /// What the view shows.
  public struct State: Codable, Equatable, Sendable {
    /// The count.
    public var value = 0
    /// Whether the loading indicator is visible.
    public var isLoading = false
    /// An alert to show once per assignment.
    @Pulse public var alertMessage: String?

    /// A state; the defaults are those of a new counter.
    public init(value: Int = 0, isLoading: Bool = false, alertMessage: String? = nil) {
      self.value = value
      self.isLoading = isLoading
      self._alertMessage = Pulse(wrappedValue: alertMessage)
    }
  }

  /// Where the counter starts.
  public let initialState = State()
  /// The reactor's pipeline.
  public let runtime = Runtime()
  private let clock: any Clock<Duration>
  private let limit: Int

  /// A counter on `clock` that stops increasing at `limit`.
  public init(clock: any Clock<Duration> = ContinuousClock(), limit: Int = 10) {
    self.clock = clock
    self.limit = limit
  }

  /// Turns an action into mutations.
  public func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .increase:
      guard currentState.value < limit else { return .just(.setAlert("Limit reached")) }
      return .run(name: "increase") { [clock] send in
        send(.setLoading(true))
        try await clock.sleep(for: .milliseconds(500))
        send(.increaseValue)
        send(.setLoading(false))
      }
    case .decrease:
      return .sequence([.setLoading(true), .decreaseValue, .setLoading(false)])
    }
  }

  /// Applies a mutation.
  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .increaseValue: state.value += 1
    case .decreaseValue: state.value -= 1
    case .setLoading(let isLoading): state.isLoading = isLoading
    case .setAlert(let message): state.alertMessage = message
    }
    return state
  }
}
