/// Where a reactor keeps its pipeline, current state, observers and stub.
///
/// Every reactor declares one, `let runtime = Runtime()`, instead of ReactorKit's global
/// table keyed by object identity. It is released with the reactor, and with it every effect,
/// every task of the `transform` hooks and every state stream (which then ends).
///
/// Use the reactor's API (``Reactor/send(_:)``, ``Reactor/currentState``, ``Reactor/state``)
/// rather than the runtime's; the runtime's own public surface is ``monitor`` and two counts
/// for leak checks in tests.
@MainActor
public final class ReactorRuntime<Action: Sendable, Mutation: Sendable, State: Sendable> {
  /// Creates an empty runtime; the pipeline is built on first use.
  ///
  /// While a ``ReactorSessionObserver`` is installed, it remembers what ran when it was
  /// created (the parent reactor a session records).
  public init() {
    if ReactorSessionObservation.observer != nil { creator = ReactorActivity.currentReactor }
  }

  /// Watches the pipeline; set it to record a trace.
  ///
  /// `nil` by default. Attach it before the first action to see the whole run.
  @exclusivity(unchecked) public var monitor: (any ReactorMonitor<Action, Mutation, State>)?

  /// Decides what runs for each asynchronous effect; set by a replay that plays effects back
  /// from a recording.
  ///
  /// `nil` by default: every effect's body runs as written, and the runtime checks this one
  /// optional per effect started.
  @exclusivity(unchecked) public var effectRunner: (any EffectRunner<Mutation>)?

  /// The reactor's id in a recorded session; set by a session recorder.
  ///
  /// While it is set, the runtime keeps ``ReactorActivity`` up to date around `mutate`,
  /// `reduce`, observers and effect bodies, and hands its monitor the activity of another
  /// reactor that caused an action or a stream's mutation. `nil` by default: the runtime then
  /// checks one flag and does nothing more.
  public var sessionID: Int? {
    didSet { updateActivityTracking() }
  }

  /// Whether the runtime keeps ``ReactorActivity`` up to date outside a session: set by a
  /// recorder of this one reactor.
  ///
  /// Then an element that this reactor's own action or effect publishes on a ``Relay`` (a
  /// like button's effect that reports the like on an app-wide event stream) carries that
  /// action and effect, and the stream's mutation made from it reaches the monitor with
  /// them as `from`, naming this reactor by ``activityID``. A recorder writes them as the
  /// mutation's publisher, and coverage credits the mutation to the action.
  ///
  /// It is lighter than a session's tracking, and keeps the runtime's fast paths: the
  /// activity is set around `mutate` (and the synchronous start of the effect it returns) and
  /// bound in async effect bodies, and a stream's mutation reaches the monitor with `from`;
  /// actions are not given an origin. `false` by default: the runtime then checks one flag
  /// per action and per effect, and nothing more.
  @exclusivity(unchecked) public var tracksOwnActivity = false {
    didSet { updateActivityTracking() }
  }

  // Read for every action and mutation of a recorded reactor, on the main actor only.
  /// The id ``ReactorActivity`` names this reactor by: its ``sessionID`` in a session;
  /// otherwise, once ``tracksOwnActivity`` is set, a number below 1 that no other runtime of
  /// the process has; 0 before.
  @exclusivity(unchecked) public private(set) var activityID = 0

  /// Whether ``sessionID`` is set.
  @usableFromInline @exclusivity(unchecked) var tracksActivity = false

  private func updateActivityTracking() {
    tracksActivity = sessionID != nil
    if let sessionID {
      activityID = sessionID
    } else if tracksOwnActivity, activityID >= 0 {
      activityID = ReactorActivity.nextLocalID()
    }
  }

  /// The recorded reactor whose code ran when the runtime was created, while a session
  /// observer was installed.
  @usableFromInline var creator: Int?

  // Exclusivity: the properties read or written on every action are marked
  // `@exclusivity(unchecked)`, which drops the runtime's dynamic exclusivity check (a
  // thread-local access set, about a third of the time of an action). They are touched only on
  // the main actor, and never while an access to them is in progress: each access is
  // instantaneous, and arrays that are iterated while callbacks run are copied first.

  // MARK: State and observers

  /// The latest delivered state (after `transform(state:)`); `nil` until the pipeline is
  /// built or a stub sets it.
  @usableFromInline @exclusivity(unchecked) var current: State?

  /// The latest state `reduce` returned (before `transform(state:)`), which the next mutation
  /// starts from; `nil` until the pipeline is built.
  @usableFromInline @exclusivity(unchecked) var reduced: State?

  @usableFromInline @exclusivity(unchecked) var observers: [Observer] = []
  var lastObserverID = 0

  @usableFromInline
  struct Observer {
    let id: Int
    @usableFromInline let receive: @MainActor (State) -> Void
    let finish: @MainActor () -> Void
  }

  // MARK: Pipeline

  /// The reactor, held weakly for work that arrives later.
  @usableFromInline var lifeline: Lifeline<Action, Mutation, State>?
  /// Whether ``lifeline`` is set (checking it directly would copy its weak reference).
  @usableFromInline @exclusivity(unchecked) var isAttached = false
  @usableFromInline @exclusivity(unchecked) var isBuilt = false
  @usableFromInline @exclusivity(unchecked)
  var mutateFunction: (@MainActor (Action) -> Effect<Mutation>)?
  @usableFromInline @exclusivity(unchecked)
  var reduceFunction: (@MainActor (State, Mutation) -> State)?
  @usableFromInline @exclusivity(unchecked) var actionEntries: [Flow<Action>.Sink] = []
  @usableFromInline @exclusivity(unchecked) var mutationEntries: [Flow<Mutation>.Sink] = []
  @usableFromInline @exclusivity(unchecked) var stateEntries: [Flow<State>.Sink] = []
  /// Whether a `transform` hook returned its input unchanged, so that values go straight to
  /// the next stage instead of through the entries' closures.
  @usableFromInline @exclusivity(unchecked) var passesActionsThrough = false
  @usableFromInline @exclusivity(unchecked) var passesMutationsThrough = false
  @usableFromInline @exclusivity(unchecked) var passesStatesThrough = false
  @usableFromInline let scope = FlowScope()

  // Re-entrancy: one unit of work (an action with every mutation it produces synchronously,
  // a mutation arriving later, a stub state, the replay to a new observer) runs at a time.
  // Actions arriving during a unit, and mutations arriving while a state is reduced or
  // delivered, are queued first-in first-out; the outermost unit drains the queue when it
  // ends, each queued item running as a unit of its own.

  /// True during a unit of work.
  @usableFromInline @exclusivity(unchecked) var isBusy = false
  /// True while an action runs `mutate` and starts its effect.
  @usableFromInline @exclusivity(unchecked) var isHandlingAction = false
  /// True while a state is being reduced, transformed or delivered.
  @usableFromInline @exclusivity(unchecked) var isEmitting = false
  /// True while the queue is being drained (its items must not drain it again).
  @usableFromInline @exclusivity(unchecked) var isDraining = false
  @usableFromInline @exclusivity(unchecked) var pending: [@MainActor () -> Void] = []
  @usableFromInline @exclusivity(unchecked) var pendingHead = 0

  @usableFromInline @exclusivity(unchecked) var lastActionID = 0
  @usableFromInline @exclusivity(unchecked) var lastMutationID = 0
  var lastEffectID = 0
  var running: [Int: RunningEffect] = [:]
  var concatenations: [Int: Task<Void, Never>] = [:]
  var liveConcatenations: Set<Int> = []
  var lastConcatenation = 0

  // MARK: Stub

  @usableFromInline @exclusivity(unchecked) var isStubEnabled = false
  @usableFromInline @exclusivity(unchecked) var stub: Stub<Action, State>?

  isolated deinit {
    scope.close()
    for effect in running.values { effect.cancel() }
    for task in concatenations.values { task.cancel() }
    let observers = self.observers
    self.observers.removeAll()
    for observer in observers { observer.finish() }
  }
}
