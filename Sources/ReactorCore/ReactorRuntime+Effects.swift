// Effects: starting, concatenating, ending and cancelling them.

extension ReactorRuntime {
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
      let local = EffectActivityLocal.forBinding
      body = { send in
        try await local.withValue(running) { try await unbound(send) }
      }
    }
    let outer = activity.map { ReactorActivity.enter($0, in: $0.reactor) }
    defer { outer.map(ReactorActivity.restore) }
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
}
