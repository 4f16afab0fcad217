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

  /// The id ``ReactorActivity`` names this reactor by: its ``sessionID`` in a session;
  /// otherwise, once ``tracksOwnActivity`` is set, a number below 1 that no other runtime of
  /// the process has; 0 before.
  public private(set) var activityID = 0

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
  private var lastObserverID = 0

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
  private var lastEffectID = 0
  private var running: [Int: RunningEffect] = [:]
  private var concatenations: [Int: Task<Void, Never>] = [:]
  private var liveConcatenations: Set<Int> = []
  private var lastConcatenation = 0

  // MARK: Stub

  @usableFromInline @exclusivity(unchecked) var isStubEnabled = false
  @usableFromInline @exclusivity(unchecked) private(set) var stub: Stub<Action, State>?

  isolated deinit {
    scope.close()
    for effect in running.values { effect.cancel() }
    for task in concatenations.values { task.cancel() }
    let observers = self.observers
    self.observers.removeAll()
    for observer in observers { observer.finish() }
  }

  // MARK: Building

  /// Remembers `reactor` (weakly) for work that arrives later; called by every entry point.
  @inlinable
  func attach(_ reactor: AnyObject) {
    if !isAttached {
      isAttached = true
      lifeline = Lifeline(reactor: reactor, runtime: self)
      scope.owner = reactor
    }
  }

  /// Builds the pipeline for `reactor`, once.
  ///
  /// The pipeline calls `mutate` and `reduce` on the reactor without retaining it: every way
  /// into the pipeline keeps the reactor alive (the reactor's own API is called on it; later
  /// work goes through the ``Lifeline`` or ``FlowScope/deliver(_:)``).
  @inlinable
  func buildIfNeeded<R: Reactor>(_ reactor: R)
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    guard !isBuilt else { return }
    isBuilt = true
    attach(reactor)
    if let observer = ReactorSessionObservation.observer {
      observer.reactorWillStart(reactor, createdBy: creator)
    }
    // Captured unowned(unsafe), not through `Unmanaged._withUnsafeGuaranteedRef`: a closure
    // handed to the standard library (built in Swift 5 mode) is checked for main-actor
    // isolation on every call.
    mutateFunction = { [unowned(unsafe) reactor] action in reactor.mutate(action: action) }
    reduceFunction = { [unowned(unsafe) reactor] state, mutation in
      reactor.reduce(state: state, mutation: mutation)
    }
    connect(
      action: reactor.transform(action:),
      mutation: reactor.transform(mutation:),
      state: reactor.transform(state:),
      initialState: current ?? reactor.initialState
    )
  }

  /// Runs the three hooks, in ReactorKit's order, connects their flows, and delivers the
  /// transformed initial state.
  @inlinable
  func connect(
    action: (Flow<Action>) -> Flow<Action>,
    mutation: (Flow<Mutation>) -> Flow<Mutation>,
    state: (Flow<State>) -> Flow<State>,
    initialState: State
  ) {
    scope.onStreamEnd = { [unowned(unsafe) self] name, error in
      monitor?.reactorStreamDidEnd(name, error: error.map { String(describing: $0) })
    }
    let identity = ObjectIdentifier(self)
    let actionInput = Flow<Action>(input: identity) { [unowned(unsafe) self] _, sink in
      actionEntries.append(sink)
    }
    let mutationInput = Flow<Mutation>(input: identity) { [unowned(unsafe) self] _, sink in
      mutationEntries.append(sink)
    }
    let stateInput = Flow<State>(input: identity) { [unowned(unsafe) self] _, sink in
      stateEntries.append(sink)
    }

    scope.isConnecting = true
    let actions = action(actionInput)
    actions.connect(scope) { [unowned(unsafe) self] action, origin in
      receive(action, origin: origin)
    }
    let mutations = mutation(mutationInput)
    mutations.connect(scope) { [unowned(unsafe) self] mutation, origin in
      apply(mutation, origin: origin)
    }
    let states = state(stateInput)
    states.connect(scope) { [unowned(unsafe) self] state, _ in
      deliver(state)
    }
    // An unchanged input connected exactly its one entry: the next stage itself.
    passesActionsThrough = actions.input == identity && actionEntries.count == 1
    passesMutationsThrough = mutations.input == identity && mutationEntries.count == 1
    passesStatesThrough = states.input == identity && stateEntries.count == 1

    // Until the initial state comes out of `transform(state:)`, `currentState` is the
    // initial state itself.
    current = initialState
    reduced = initialState
    withEmission {
      for entry in stateEntries { entry(initialState, .sent) }
    }
    scope.didConnect()
  }

  // MARK: Actions

  /// Entry point of ``Reactor/send(_:)``: runs the action as a unit of work, or queues it
  /// behind the unit in progress.
  @inlinable
  func send(_ action: Action) {
    if tracksActivity {
      sendRecordingOrigin(action)
      return
    }
    dispatch(action)
  }

  /// ``send(_:)`` in a recorded session: the action's origin is what runs now.
  ///
  /// Inlinable and never inlined, as ``receiveRecordingOrigin(_:id:origin:mutate:)`` is: the
  /// whole recorded path below it is then specialized for the client's reactor.
  @inlinable @inline(never)
  func sendRecordingOrigin(_ action: Action) {
    ReactorActivity.delivering(ReactorActivity.current) { dispatch(action) }
  }

  /// Runs an action as a unit of work, or queues it behind the unit in progress.
  @inlinable
  func dispatch(_ action: Action) {
    if isBusy {
      enqueue { [unowned(unsafe) self] in dispatch(action) }
      return
    }
    isBusy = true
    if passesActionsThrough {
      receive(action, origin: .sent)
    } else {
      for entry in actionEntries { entry(action, .sent) }
    }
    endUnit()
  }

  /// ``send(_:)`` from the reactor's own `send`, which keeps the reactor alive for the call.
  ///
  /// When the action and mutation hooks pass values through and nothing is being emitted,
  /// `mutate` and `reduce` are called on the reactor directly instead of through the
  /// pipeline's closures: the same steps in the same order, without a closure call or a
  /// retain of the reactor (whose weak references put every retain on the slow path).
  @inlinable
  func send<R: Reactor>(_ action: Action, to reactor: R)
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    guard passesActionsThrough, passesMutationsThrough, isBuilt, !isBusy, !isStubEnabled,
      !tracksActivity
    else {
      send(action)
      return
    }
    isBusy = true
    lastActionID += 1
    let id = lastActionID
    monitor?.reactorDidReceive(action: action, id: id, origin: .sent)
    isHandlingAction = true
    let effect: Effect<Mutation>
    if tracksOwnActivity {
      // What `mutate` publishes on a relay comes from this action.
      effect = ReactorActivity.whileRunning(
        ReactorActivity(reactor: activityID, action: id), in: activityID
      ) { reactor.mutate(action: action) }
    } else {
      effect = reactor.mutate(action: action)
    }
    switch effect.operation {
    case .just(let mutation):
      apply(mutation, origin: .action(id)) { reactor.reduce(state: $0, mutation: $1) }
    case .sequence(let mutations):
      for mutation in mutations {
        apply(mutation, origin: .action(id)) { reactor.reduce(state: $0, mutation: $1) }
      }
    default:
      start(effect, action: id)
    }
    isHandlingAction = false
    endUnit()
  }

  /// End of the action flow: runs `mutate(action:)` and starts its effect.
  ///
  /// An action that reaches it while another is handled or a state is emitted (from a
  /// source merged in `transform(action:)`) is queued.
  @inlinable
  func receive(_ action: Action, origin: Origin) {
    guard !isStubEnabled, let mutateFunction else { return }
    if isHandlingAction || isEmitting {
      enqueue { [unowned(unsafe) self] in receive(action, origin: origin) }
      return
    }
    let isOutermost = !isBusy
    isBusy = true
    lastActionID += 1
    let id = lastActionID
    isHandlingAction = true
    if tracksActivity {
      receiveRecordingOrigin(action, id: id, origin: origin, mutate: mutateFunction)
    } else {
      monitor?.reactorDidReceive(action: action, id: id, origin: origin)
      if tracksOwnActivity {
        let activity = ReactorActivity(reactor: activityID, action: id)
        ReactorActivity.whileRunning(activity, in: activityID) {
          start(mutateFunction(action), action: id)
        }
      } else {
        start(mutateFunction(action), action: id)
      }
    }
    isHandlingAction = false
    if isOutermost { endUnit() }
  }

  /// The body of ``receive(_:origin:)`` in a recorded session: the action's origin goes to
  /// the monitor, and the action runs as this reactor's activity.
  ///
  /// Inlinable, so that the client specializes it for its reactor (unspecialized, it looked
  /// up the metadata of the reactor's optionals, arrays and ranges on every action), and
  /// never inlined, so that the untraced path that calls it stays as small as it was.
  @inlinable @inline(never)
  func receiveRecordingOrigin(
    _ action: Action, id: Int, origin: Origin, mutate: (Action) -> Effect<Mutation>
  ) {
    monitor?.reactorDidReceive(
      action: action, id: id, origin: origin, from: ReactorActivity.delivered)
    let reactor = activityID
    ReactorActivity.whileRunning(ReactorActivity(reactor: reactor, action: id), in: reactor) {
      start(mutate(action), action: id)
    }
  }

  // MARK: Mutations

  /// Sends a mutation into the mutation flow.
  @inlinable
  func emit(_ mutation: Mutation, origin: Origin) {
    if passesMutationsThrough {
      apply(mutation, origin: origin)
    } else {
      for entry in mutationEntries { entry(mutation, origin) }
    }
  }

  /// End of the mutation flow: reduces and pushes the new state into the state flow.
  @inlinable
  func apply(_ mutation: Mutation, origin: Origin) {
    guard let reduceFunction else { return }
    // Checked here, not in the path below, which the fast path of `send` inlines: a runtime
    // in a recorded session never takes that fast path.
    if tracksActivity {
      applyRecordingOrigin(mutation, origin: origin, reducing: reduceFunction)
      return
    }
    apply(mutation, origin: origin, reducing: reduceFunction)
  }

  /// ``apply(_:origin:)`` with the given `reduce`.
  ///
  /// `reduce` starts from the last reduced state, never from a transformed one:
  /// `transform(state:)` only changes what `currentState` and observers see.
  @inlinable
  func apply(
    _ mutation: Mutation, origin: Origin, reducing reduce: @MainActor (State, Mutation) -> State
  ) {
    guard !isStubEnabled, let previous = reduced else { return }
    if isEmitting {
      enqueue { [unowned(unsafe) self] in apply(mutation, origin: origin) }
      return
    }
    // One emission, written out rather than through `withEmission`: this is the path of
    // every mutation, and the closure kept it from being inlined.
    let isOutermost = !isBusy
    isBusy = true
    isEmitting = true
    let state = reduce(previous, mutation)
    reduced = state
    lastMutationID += 1
    if let monitor {
      if tracksOwnActivity, case .stream = origin {
        // Who published the element: this reactor's own action, or something else.
        monitor.reactorDidReduce(
          mutation: mutation, id: lastMutationID, origin: origin, state: state,
          from: ReactorActivity.delivered)
      } else {
        monitor.reactorDidReduce(
          mutation: mutation, id: lastMutationID, origin: origin, state: state)
      }
    }
    if passesStatesThrough {
      notify(state)
    } else {
      for entry in stateEntries { entry(state, origin) }
    }
    isEmitting = false
    if isOutermost { endUnit() }
  }

  /// The body of ``apply(_:origin:reducing:)`` in a recorded session: the mutation is
  /// reduced and delivered as the activity that caused it, which goes to the monitor for a
  /// stream's mutation.
  ///
  /// Inlinable and never inlined, as ``receiveRecordingOrigin(_:id:origin:mutate:)`` is.
  @inlinable @inline(never)
  func applyRecordingOrigin(
    _ mutation: Mutation, origin: Origin, reducing reduce: @MainActor (State, Mutation) -> State
  ) {
    guard !isStubEnabled, let previous = reduced else { return }
    if isEmitting {
      enqueue { [unowned(unsafe) self] in apply(mutation, origin: origin) }
      return
    }
    let reactor = activityID
    let from: ReactorActivity?
    let activity: ReactorActivity?
    switch origin {
    case .action(let action):
      from = nil
      activity = ReactorActivity(reactor: reactor, action: action)
    case .effect(let effect, let action):
      from = nil
      activity = ReactorActivity(reactor: reactor, action: action, effect: effect)
    case .stream:
      // What the element's publisher ran is what this mutation's observers run for.
      from = ReactorActivity.delivered
      activity = from
    case .sent:
      from = nil
      activity = nil
    }
    let isOutermost = !isBusy
    isBusy = true
    isEmitting = true
    ReactorActivity.whileRunning(activity, in: reactor) {
      let state = reduce(previous, mutation)
      reduced = state
      lastMutationID += 1
      monitor?.reactorDidReduce(
        mutation: mutation, id: lastMutationID, origin: origin, state: state, from: from)
      if passesStatesThrough {
        notify(state)
      } else {
        for entry in stateEntries { entry(state, origin) }
      }
    }
    isEmitting = false
    if isOutermost { endUnit() }
  }

  /// End of the state flow, and the stub's way in: updates `currentState`, then notifies
  /// every observer in subscription order.
  @inlinable
  func deliver(_ state: State) {
    withEmission { notify(state) }
  }

  /// Makes `state` the current state and hands it to every observer, in subscription order;
  /// called during an emission.
  @inlinable
  func notify(_ state: State) {
    current = state
    // A copy: an observer may subscribe or cancel while it runs.
    let observers = self.observers
    for index in observers.indices { observers[index].receive(state) }
  }

  /// Runs `body` as one emission (a state reduced, transformed and delivered); outside a
  /// unit of work it is a unit of its own.
  @inlinable
  func withEmission(_ body: () -> Void) {
    if isEmitting {
      body()
      return
    }
    let isOutermost = !isBusy
    isBusy = true
    isEmitting = true
    body()
    isEmitting = false
    if isOutermost { endUnit() }
  }

  /// Ends the unit of work in progress and, unless the queue is already being drained, runs
  /// the work queued meanwhile.
  @inlinable
  func endUnit() {
    isBusy = false
    if !isDraining, pendingHead < pending.count { drain() }
  }

  @inlinable
  func enqueue(_ work: @escaping @MainActor () -> Void) {
    if tracksActivity || tracksOwnActivity {
      enqueueRecordingOrigin(work)
      return
    }
    pending.append(work)
  }

  /// ``enqueue(_:)`` in a recorded session: the work runs later with the origin of the
  /// value it delivers.
  @usableFromInline
  func enqueueRecordingOrigin(_ work: @escaping @MainActor () -> Void) {
    let origin = ReactorActivity.delivered
    pending.append { ReactorActivity.delivering(origin, work) }
  }

  /// Runs the queued work first-in first-out, each item as a unit of its own, until the queue
  /// is empty (items may queue more).
  @usableFromInline
  func drain() {
    isDraining = true
    while pendingHead < pending.count {
      let work = pending[pendingHead]
      pendingHead += 1
      work()
    }
    pending.removeAll(keepingCapacity: true)
    pendingHead = 0
    isDraining = false
  }

  // MARK: Effects

  /// Starts an effect for the action with id `action`; returns the tasks of the async work
  /// it started, so that `concat` can wait for them.
  @inlinable
  @discardableResult
  func start(_ effect: Effect<Mutation>, action: Int) -> [Task<Void, Never>] {
    switch effect.operation {
    case .none:
      return []
    case .just(let mutation):
      emit(mutation, origin: .action(action))
      return []
    case .sequence(let mutations):
      for mutation in mutations { emit(mutation, origin: .action(action)) }
      return []
    case .cancel(let id):
      cancelEffects(id: id, action: action)
      return []
    case .merge(let effects):
      return effects.flatMap { start($0, action: action) }
    case .concat(let effects):
      return startConcatenation(effects[...], action: action)
    case .run(let run):
      return [startRun(run, action: action)]
    }
  }

  @usableFromInline
  func startConcatenation(
    _ effects: ArraySlice<Effect<Mutation>>, action: Int
  ) -> [Task<Void, Never>] {
    var effects = effects
    // Synchronous effects run now, in order; the rest waits for each async step in turn.
    while let first = effects.first, first.isSynchronous {
      start(first, action: action)
      effects.removeFirst()
    }
    guard let next = effects.first else { return [] }
    let firstTasks = start(next, action: action)
    let rest = effects.dropFirst()
    guard !rest.isEmpty, let lifeline else { return firstTasks }
    lastConcatenation += 1
    let key = lastConcatenation
    liveConcatenations.insert(key)
    let driver = Task.immediate { @MainActor in
      var tasks = firstTasks
      var remaining = rest
      while true {
        for task in tasks { await task.value }
        guard !Task.isCancelled, let effect = remaining.popFirst() else { break }
        tasks = []
        lifeline.withRuntime { tasks = $0.start(effect, action: action) }
      }
      lifeline.withRuntime { runtime in
        runtime.liveConcatenations.remove(key)
        runtime.concatenations[key] = nil
      }
    }
    // A driver that already finished synchronously is not kept.
    if liveConcatenations.contains(key) { concatenations[key] = driver }
    return [driver]
  }

  @usableFromInline
  func startRun(_ run: Effect<Mutation>.Run, action: Int) -> Task<Void, Never> {
    if run.cancelInFlight, let id = run.id { cancelEffects(id: id, action: action) }
    lastEffectID += 1
    let effectID = lastEffectID
    let effect = RunningEffect(cancelID: run.id)
    running[effectID] = effect
    monitor?.reactorDidStartEffect(
      effectID, action: action, name: run.name, id: run.id, cancelsInFlight: run.cancelInFlight)

    let origin = Origin.effect(effectID, action: action)
    let lifeline = self.lifeline
    let send = Send<Mutation> { [effect] mutation in
      guard !effect.isCancelled else { return }
      lifeline?.withRuntime { $0.emit(mutation, origin: origin) }
    }
    var body = run.body
    if let effectRunner {
      body = effectRunner.body(
        for: EffectRun(
          effect: effectID, action: action, name: run.name, id: run.id,
          cancelsInFlight: run.cancelInFlight),
        running: body)
    }
    var activity: ReactorActivity?
    if tracksActivity || tracksOwnActivity {
      let running = ReactorActivity(reactor: activityID, action: action, effect: effectID)
      activity = running
      let unbound = body
      body = { send in
        try await ReactorActivity.$ofEffect.withValue(running) { try await unbound(send) }
      }
    }
    let outerActivity = ReactorActivity.running
    let outerReactor = ReactorActivity.runningReactor
    if let activity {
      ReactorActivity.running = activity
      ReactorActivity.runningReactor = activity.reactor
    }
    defer {
      if activity != nil {
        ReactorActivity.running = outerActivity
        ReactorActivity.runningReactor = outerReactor
      }
    }
    let task = Task.immediate { @MainActor in
      let outcome: EffectOutcome
      do {
        try await body(send)
        outcome = effect.isCancelled ? .cancelled : .finished
      } catch {
        outcome =
          effect.isCancelled || error is CancellationError
          ? .cancelled : .failed(String(describing: error))
      }
      lifeline?.withRuntime { $0.end(effectID, outcome: outcome) }
    }
    effect.task = task
    if effect.isEnded { effect.task = nil }
    return task
  }

  private func end(_ effectID: Int, outcome: EffectOutcome) {
    guard let effect = running.removeValue(forKey: effectID) else { return }
    effect.isEnded = true
    effect.task = nil
    monitor?.reactorDidEndEffect(effectID, outcome: outcome)
  }

  /// Cancels the running effects started with `id`, for the action with id `action`.
  @usableFromInline
  func cancelEffects(id: AnyHashable, action: Int) {
    for (effectID, effect) in running where effect.cancelID == id {
      effectRunner?.effectWillCancel(effectID, byAction: action)
      effect.cancel()
    }
  }

  /// Reduces a mutation a recording holds as if `origin` had emitted it, after
  /// `transform(mutation:)`: how a replay delivers the mutations of work it does not run
  /// (an effect played back from a recording, a stream's element).
  ///
  /// Queued like any mutation while a state is being delivered. Nothing happens before the
  /// pipeline is built or while the stub is enabled.
  /// - Parameters:
  ///   - mutation: The recorded mutation, as `reduce` received it.
  ///   - origin: What the monitor is told emitted it.
  public func replay(_ mutation: Mutation, as origin: Origin) {
    apply(mutation, origin: origin)
  }

  /// Makes the pipeline start from `state` instead of the reactor's `initialState`: how a
  /// replay of a recording that starts mid-run (a flight recorder's window) starts from the
  /// state the recording starts with.
  ///
  /// - Parameter state: The state to start from.
  /// - Returns: Whether it took effect: `false` once the pipeline is built or a stub exists.
  @discardableResult
  public func start(from state: State) -> Bool {
    guard !isBuilt, stub == nil else { return false }
    current = state
    return true
  }

  // MARK: Observers

  /// Registers an observer, replays the current state to it, and returns its subscription.
  @usableFromInline
  func observe(
    currentState: State,
    receive: @escaping @MainActor (State) -> Void,
    finish: @escaping @MainActor () -> Void
  ) -> Subscription {
    lastObserverID += 1
    let id = lastObserverID
    observers.append(Observer(id: id, receive: receive, finish: finish))
    withEmission { receive(current ?? currentState) }
    let lifeline = self.lifeline
    return Subscription {
      lifeline?.withRuntime { $0.observers.removeAll { $0.id == id } }
    }
  }

  /// The number of live state observers; useful to check that a view released its bindings.
  public var observerCount: Int { observers.count }

  /// The number of async effects in flight; useful to check that work was cancelled.
  public var runningEffectCount: Int { running.count }

  // MARK: Stub

  /// Returns the stub, creating it (and resetting the current state) on first use.
  func stub(initialState: State) -> Stub<Action, State> {
    if let stub { return stub }
    current = initialState
    let lifeline = self.lifeline
    let stub = Stub<Action, State>(initialState: initialState) { state in
      lifeline?.withRuntime { runtime in
        // Set while a state is delivered (from an observer, an Observation `onChange`): it
        // is queued like a re-entrant action, so every observer sees the current delivery
        // first, in order, and the new state after it.
        guard runtime.isEmitting else { return runtime.deliver(state) }
        runtime.enqueue { lifeline?.withRuntime { $0.deliver(state) } }
      }
    }
    self.stub = stub
    return stub
  }
}

/// One async effect in flight.
@MainActor
@usableFromInline
final class RunningEffect {
  let cancelID: AnyHashable?
  var task: Task<Void, Never>?
  var isCancelled = false
  var isEnded = false

  init(cancelID: AnyHashable?) {
    self.cancelID = cancelID
  }

  func cancel() {
    isCancelled = true
    task?.cancel()
  }
}
