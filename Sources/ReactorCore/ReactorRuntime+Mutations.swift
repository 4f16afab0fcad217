// Mutations: the end of the mutation flow, reduced and delivered.

extension ReactorRuntime {
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
    case .sent, .external:
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

  /// ``applyRecordingOrigin(_:origin:reducing:)`` for a mutation of action `id` applied
  /// while that action runs as this reactor's activity (``send(_:to:)``'s recorded path,
  /// inside its own bookkeeping): the activity is not set again around each mutation, and
  /// `reduce` is called on `reactor` directly, with no closure to retain it.
  ///
  /// Inlinable, and inlined into ``sendRecordingOrigin(_:to:)``, its one caller, which is
  /// never inlined itself.
  @inlinable @inline(__always)
  func applyWithinAction<R: Reactor>(_ mutation: Mutation, id: Int, of reactor: R)
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    guard !isStubEnabled, let previous = reduced else { return }
    if isEmitting {
      enqueue { [unowned(unsafe) self] in apply(mutation, origin: .action(id)) }
      return
    }
    let isOutermost = !isBusy
    isBusy = true
    isEmitting = true
    let state = reactor.reduce(state: previous, mutation: mutation)
    reduced = state
    lastMutationID += 1
    monitor?.reactorDidReduce(
      mutation: mutation, id: lastMutationID, origin: .action(id), state: state, from: nil)
    if passesStatesThrough {
      notify(state)
    } else {
      for entry in stateEntries { entry(state, .action(id)) }
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
}
