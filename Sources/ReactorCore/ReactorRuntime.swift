/// Where a reactor keeps its pipeline, current state, observers and stub.
///
/// Every reactor declares one, `let runtime = Runtime()`, instead of ReactorKit's global
/// table keyed by object identity. It is released with the reactor, and with it every effect,
/// every task of the `transform` hooks and every state stream (which then ends).
///
/// Use the reactor's API (``Reactor/send(_:)``, ``Reactor/currentState``, ``Reactor/state``)
/// rather than the runtime's; the runtime's own public surface is ``monitor``.
@MainActor
public final class ReactorRuntime<Action: Sendable, Mutation: Sendable, State: Sendable> {
  /// Creates an empty runtime; the pipeline is built on first use.
  public init() {}

  /// Watches the pipeline; set it to record a trace. `nil` by default.
  ///
  /// Attach it before the first action to see the whole run.
  public var monitor: (any ReactorMonitor<Action, Mutation, State>)?

  // MARK: State

  /// The latest delivered state; `nil` until the pipeline is built or a stub sets it.
  var current: State?

  private var observers: [Observer] = []
  private var nextObserverID = 0

  private struct Observer {
    let id: Int
    let receive: @MainActor (State) -> Void
    let finish: @MainActor () -> Void
  }

  // MARK: Pipeline

  private var isBuilt = false
  private var mutateFunction: (@MainActor (Action) -> Effect<Mutation>)?
  private var reduceFunction: (@MainActor (State, Mutation) -> State)?
  private var actionEntries: [Flow<Action>.Sink] = []
  private var mutationEntries: [Flow<Mutation>.Sink] = []
  private var stateEntries: [Flow<State>.Sink] = []
  private let scope = FlowScope()

  /// True while a state is being reduced or delivered; work arriving then is queued.
  private var isEmitting = false
  private var pending: [@MainActor () -> Void] = []
  private var pendingHead = 0

  private var lastActionID = 0
  private var lastMutationID = 0
  private var lastEffectID = 0
  private var running: [Int: RunningEffect] = [:]
  private var concatenations: [Int: Task<Void, Never>] = [:]
  private var liveConcatenations: Set<Int> = []
  private var lastConcatenation = 0

  // MARK: Stub

  var isStubEnabled = false
  private(set) var stub: Stub<Action, State>?

  isolated deinit {
    scope.close()
    for effect in running.values { effect.cancel() }
    running.removeAll()
    for task in concatenations.values { task.cancel() }
    concatenations.removeAll()
    let observers = self.observers
    self.observers.removeAll()
    for observer in observers { observer.finish() }
  }

  // MARK: Building

  /// Builds the pipeline for `reactor`, once.
  func buildIfNeeded<R: Reactor>(_ reactor: R)
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    guard !isBuilt else { return }
    isBuilt = true
    mutateFunction = { [weak reactor] action in reactor?.mutate(action: action) ?? .none }
    reduceFunction = { [weak reactor] state, mutation in
      reactor?.reduce(state: state, mutation: mutation) ?? state
    }
    scope.onStreamEnd = { [weak self] name, error in
      self?.monitor?.reactorStreamDidEnd(name, error: error.map { String(describing: $0) })
    }

    let actionInput = Flow<Action> { [unowned self] _, sink in actionEntries.append(sink) }
    let mutationInput = Flow<Mutation> { [unowned self] _, sink in mutationEntries.append(sink) }
    let stateInput = Flow<State> { [unowned self] _, sink in stateEntries.append(sink) }

    // The hooks run once, in ReactorKit's order; their flows are connected right away.
    reactor.transform(action: actionInput).connect(scope) { [unowned self] action, origin in
      receive(action, origin: origin)
    }
    reactor.transform(mutation: mutationInput).connect(scope) { [unowned self] mutation, origin in
      apply(mutation, origin: origin)
    }
    reactor.transform(state: stateInput).connect(scope) { [unowned self] state, _ in
      deliver(state)
    }

    // The first state is the transformed initial state; until it comes out of
    // `transform(state:)`, `currentState` is the initial state itself.
    let initialState = current ?? reactor.initialState
    current = initialState
    withEmission {
      for entry in stateEntries { entry(initialState, .sent) }
    }
  }

  // MARK: Actions

  /// Entry point of ``Reactor/send(_:)``.
  func send(_ action: Action) {
    if isEmitting {
      enqueue { [unowned self] in send(action) }
      return
    }
    for entry in actionEntries { entry(action, .sent) }
  }

  /// End of the action flow: runs `mutate(action:)` and starts its effect.
  private func receive(_ action: Action, origin: Origin) {
    guard !isStubEnabled, let mutateFunction else { return }
    if isEmitting {
      enqueue { [unowned self] in receive(action, origin: origin) }
      return
    }
    lastActionID += 1
    let id = lastActionID
    monitor?.reactorDidReceive(action: action, id: id, origin: origin)
    start(mutateFunction(action), action: id)
  }

  // MARK: Mutations

  /// Sends a mutation into the mutation flow.
  private func emit(_ mutation: Mutation, origin: Origin) {
    for entry in mutationEntries { entry(mutation, origin) }
  }

  /// End of the mutation flow: reduces and pushes the new state into the state flow.
  private func apply(_ mutation: Mutation, origin: Origin) {
    guard !isStubEnabled, let reduceFunction, let previous = current else { return }
    if isEmitting {
      enqueue { [unowned self] in apply(mutation, origin: origin) }
      return
    }
    withEmission {
      let state = reduceFunction(previous, mutation)
      lastMutationID += 1
      monitor?.reactorDidReduce(mutation: mutation, id: lastMutationID, origin: origin, state: state)
      for entry in stateEntries { entry(state, origin) }
    }
  }

  /// End of the state flow, and the stub's way in: updates `currentState`, then notifies
  /// every observer in subscription order.
  func deliver(_ state: State) {
    withEmission {
      current = state
      let observers = self.observers
      for observer in observers { observer.receive(state) }
    }
  }

  /// Runs `body` as one emission: re-entrant work is queued and processed right after it.
  private func withEmission(_ body: () -> Void) {
    if isEmitting {
      body()
      return
    }
    isEmitting = true
    body()
    isEmitting = false
    drain()
  }

  private func enqueue(_ work: @escaping @MainActor () -> Void) {
    pending.append(work)
  }

  private func drain() {
    while !isEmitting, pendingHead < pending.count {
      let work = pending[pendingHead]
      pendingHead += 1
      work()
    }
    if pendingHead == pending.count, !pending.isEmpty {
      pending.removeAll(keepingCapacity: true)
      pendingHead = 0
    }
  }

  // MARK: Effects

  /// Starts an effect for the action with id `action`; returns the tasks of the async work
  /// it started, so that `concat` can wait for them.
  @discardableResult
  private func start(_ effect: Effect<Mutation>, action: Int) -> [Task<Void, Never>] {
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
      cancelEffects(id: id)
      return []
    case .merge(let effects):
      return effects.flatMap { start($0, action: action) }
    case .concat(let effects):
      return startConcatenation(effects[...], action: action)
    case .run(let run):
      return [startRun(run, action: action)]
    }
  }

  private func startConcatenation(
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
    guard !rest.isEmpty else { return firstTasks }
    lastConcatenation += 1
    let key = lastConcatenation
    liveConcatenations.insert(key)
    let driver = Task.immediate { @MainActor [weak self] in
      var tasks = firstTasks
      var remaining = rest
      while true {
        for task in tasks { await task.value }
        guard let self, !Task.isCancelled, let effect = remaining.popFirst() else { break }
        tasks = self.start(effect, action: action)
      }
      self?.liveConcatenations.remove(key)
      self?.concatenations[key] = nil
    }
    // A driver that already finished synchronously is not kept.
    if liveConcatenations.contains(key) { concatenations[key] = driver }
    return [driver]
  }

  private func startRun(_ run: Effect<Mutation>.Run, action: Int) -> Task<Void, Never> {
    if run.cancelInFlight, let id = run.id { cancelEffects(id: id) }
    lastEffectID += 1
    let effectID = lastEffectID
    let effect = RunningEffect(cancelID: run.id)
    running[effectID] = effect
    monitor?.reactorDidStartEffect(effectID, action: action, name: run.name)

    let origin = Origin.effect(effectID, action: action)
    let send = Send<Mutation> { [weak self, effect] mutation in
      guard !effect.isCancelled, let self else { return }
      self.emit(mutation, origin: origin)
    }
    let body = run.body
    let task = Task.immediate { @MainActor [weak self] in
      let outcome: EffectOutcome
      do {
        try await body(send)
        outcome = effect.isCancelled ? .cancelled : .finished
      } catch {
        outcome =
          effect.isCancelled || error is CancellationError
          ? .cancelled : .failed(String(describing: error))
      }
      self?.end(effectID, outcome: outcome)
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

  private func cancelEffects(id: AnyHashable) {
    for (_, effect) in running where effect.cancelID == id {
      effect.cancel()
    }
  }

  // MARK: Observers

  /// Registers an observer, replays the current state to it, and returns its subscription.
  func observe(
    currentState: State,
    receive: @escaping @MainActor (State) -> Void,
    finish: @escaping @MainActor () -> Void
  ) -> Subscription {
    nextObserverID += 1
    let id = nextObserverID
    observers.append(Observer(id: id, receive: receive, finish: finish))
    withEmission { receive(current ?? currentState) }
    return Subscription { [weak self] in
      self?.observers.removeAll { $0.id == id }
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
    let stub = Stub<Action, State>(initialState: initialState) { [weak self] state in
      self?.deliver(state)
    }
    self.stub = stub
    return stub
  }
}

/// One async effect in flight.
@MainActor
private final class RunningEffect {
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
