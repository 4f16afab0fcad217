// Building: the pipeline, connected once on first use.

extension ReactorRuntime {
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
}
