/// An object that owns the state of one view and turns what the user did into new states.
///
/// A reactor declares what the user can do (`Action`), the smallest changes of its state
/// (`Mutation`, which defaults to `Action`), what the view shows (`State`) and where it starts
/// (`initialState`). Each action flows through one pipeline:
///
/// `transform(action:)` → `mutate(action:)` → `transform(mutation:)` →
/// `reduce(state:mutation:)` → `transform(state:)` → ``currentState`` → observers.
///
/// The pipeline lives on the main actor, is built lazily on first use and exactly once, and
/// keeps ReactorKit's ordering guarantees (see `docs/semantics.md`). A reactor keeps its
/// pipeline in one stored property, ``runtime``, instead of a global table keyed by object
/// identity:
///
/// ```swift
/// final class CounterReactor: Reactor {
///   enum Action { case increase, decrease }
///   enum Mutation { case increaseValue, decreaseValue, setLoading(Bool) }
///   struct State { var value = 0; var isLoading = false }
///
///   let initialState = State()
///   let runtime = Runtime()
///   let clock: any Clock<Duration>
///
///   init(clock: any Clock<Duration> = ContinuousClock()) { self.clock = clock }
///
///   func mutate(action: Action) -> Effect<Mutation> {
///     switch action {
///     case .increase:
///       return .run { [clock] send in
///         send(.setLoading(true))
///         try await clock.sleep(for: .milliseconds(500))
///         send(.increaseValue)
///         send(.setLoading(false))
///       }
///     case .decrease:
///       return .concat(.just(.setLoading(true)), .just(.decreaseValue), .just(.setLoading(false)))
///     }
///   }
///
///   func reduce(state: State, mutation: Mutation) -> State {
///     var state = state
///     switch mutation {
///     case .increaseValue: state.value += 1
///     case .decreaseValue: state.value -= 1
///     case .setLoading(let isLoading): state.isLoading = isLoading
///     }
///     return state
///   }
/// }
/// ```
@MainActor
public protocol Reactor: AnyObject {
  /// What the user did, sent to the reactor with ``send(_:)``.
  associatedtype Action: Sendable
  /// The smallest change of the state; `reduce(state:mutation:)` applies one at a time.
  associatedtype Mutation: Sendable = Action
  /// What the view shows.
  associatedtype State: Sendable

  /// The state before any action, and the value of ``currentState`` until the pipeline is
  /// built.
  var initialState: State { get }

  /// Where the runtime keeps this reactor's pipeline, state, observers and stub.
  ///
  /// Declare it once as a stored property: `let runtime = Runtime()`.
  var runtime: ReactorRuntime<Action, Mutation, State> { get }

  /// Turns an action into the mutations it causes, now and over time.
  ///
  /// Side effects live here. Return ``Effect/just(_:)`` or ``Effect/sequence(_:)`` for
  /// mutations known now, ``Effect/run(id:cancelInFlight:name:_:)`` for async work. When
  /// `Mutation` is `Action`, the default implementation emits the action itself.
  /// - Parameter action: The action that reached the reactor, after `transform(action:)`.
  /// - Returns: The work to run for this action.
  func mutate(action: Action) -> Effect<Mutation>

  /// Computes the state that follows one mutation. Pure and synchronous.
  ///
  /// Never runs concurrently with itself and never recursively. Inside `reduce`,
  /// ``currentState`` still holds the previous state.
  /// - Parameters:
  ///   - state: The state before the mutation.
  ///   - mutation: The mutation to apply.
  /// - Returns: The new state.
  func reduce(state: State, mutation: Mutation) -> State

  /// Reshapes the stream of actions before `mutate(action:)`, once, when the pipeline is built.
  ///
  /// Merge external action sources or debounce here. The default returns `action` unchanged.
  /// - Parameter action: The actions sent with ``send(_:)``.
  /// - Returns: The actions that reach `mutate(action:)`.
  func transform(action: Flow<Action>) -> Flow<Action>

  /// Reshapes the stream of mutations before `reduce(state:mutation:)`, once, when the
  /// pipeline is built.
  ///
  /// The place to merge a global event stream, such as a service's events. The default
  /// returns `mutation` unchanged.
  /// - Parameter mutation: The mutations produced by `mutate(action:)`.
  /// - Returns: The mutations that reach `reduce(state:mutation:)`.
  func transform(mutation: Flow<Mutation>) -> Flow<Mutation>

  /// Reshapes every state, the initial one included, before it becomes ``currentState``.
  ///
  /// Runs once, when the pipeline is built. The default returns `state` unchanged. Only
  /// ``currentState`` and observers see its output: `reduce` goes on from the state it last
  /// returned, so a mapping hook is applied once per state and a filtering hook hides states
  /// without losing mutations.
  /// - Parameter state: The states produced by `reduce(state:mutation:)`.
  /// - Returns: The states that observers receive.
  func transform(state: Flow<State>) -> Flow<State>
}

extension Reactor {
  /// The type of ``runtime``: declare `let runtime = Runtime()` in every reactor.
  public typealias Runtime = ReactorRuntime<Action, Mutation, State>

  /// Returns `action` unchanged.
  public func transform(action: Flow<Action>) -> Flow<Action> { action }

  /// Returns `mutation` unchanged.
  public func transform(mutation: Flow<Mutation>) -> Flow<Mutation> { mutation }

  /// Returns `state` unchanged.
  public func transform(state: Flow<State>) -> Flow<State> { state }
}

extension Reactor where Mutation == Action {
  /// Emits the action itself as the only mutation.
  public func mutate(action: Action) -> Effect<Mutation> { .just(action) }
}

extension Reactor {
  /// Causes nothing, as ReactorKit's default `mutate` (`.empty()`) does: a reactor that only
  /// holds state, such as a cell's, declares no `mutate`.
  public func mutate(action: Action) -> Effect<Mutation> { .none }

  /// Returns `state` unchanged, as ReactorKit's default `reduce` does.
  public func reduce(state: State, mutation: Mutation) -> State { state }
}

/// The action of a reactor the user cannot act on, such as a cell's that only shows state:
/// `typealias Action = NoAction`, as in ReactorKit. With ``Reactor/mutate(action:)`` and
/// ``Reactor/reduce(state:mutation:)`` left to their defaults, such a reactor is its
/// `initialState` and its runtime:
///
/// ```swift
/// final class ItemCellReactor: Reactor {
///   typealias Action = NoAction
///   struct State: Sendable { var title: String }
///   let initialState: State
///   let runtime = Runtime()
///   init(title: String) { initialState = State(title: title) }
/// }
/// ```
public typealias NoAction = Never
