// Actions: `send` and the end of the action flow.

extension ReactorRuntime {
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

  /// The end of ``Reactor/send(_:from:)``: runs an action that comes from outside the app
  /// as a unit of work, or queues it behind the unit in progress, with origin
  /// ``Origin/external(_:)``.
  func send(_ action: Action, from source: String) {
    if isBusy {
      enqueue { [unowned(unsafe) self] in send(action, from: source) }
      return
    }
    isBusy = true
    if passesActionsThrough {
      receive(action, origin: .external(source))
    } else {
      for entry in actionEntries { entry(action, .external(source)) }
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
    guard passesActionsThrough, passesMutationsThrough, isBuilt, !isBusy, !isStubEnabled
    else {
      send(action)
      return
    }
    if tracksActivity {
      sendRecordingOrigin(action, to: reactor)
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

  /// ``send(_:to:)`` in a recorded session: the steps of ``sendRecordingOrigin(_:)`` (the
  /// action delivered as what runs now, its origin to the monitor, `mutate` and its effect
  /// run as this reactor's activity), with `mutate` and `reduce` called on the reactor
  /// directly, as the fast path outside a session does.
  ///
  /// The activity is set and restored without closures (``ReactorActivity/enter(_:in:)``),
  /// as ``ReactorActivity/delivering(_:_:)`` and ``ReactorActivity/whileRunning(_:in:_:)``
  /// would around them: a closure that captures the reactor retains it, and a reactor's weak
  /// references put every retain and release of it on the slow path (about 130 instructions
  /// an event for four closures).
  ///
  /// Inlinable and never inlined, as ``receiveRecordingOrigin(_:id:origin:mutate:)`` is.
  @inlinable @inline(never)
  func sendRecordingOrigin<R: Reactor>(_ action: Action, to reactor: R)
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    let origin = ReactorActivity.current
    let outerDelivered = ReactorActivity.delivered
    ReactorActivity.delivered = origin
    isBusy = true
    lastActionID += 1
    let id = lastActionID
    isHandlingAction = true
    monitor?.reactorDidReceive(action: action, id: id, origin: .sent, from: origin)
    let outer = ReactorActivity.enter(
      ReactorActivity(reactor: activityID, action: id), in: activityID)
    let effect = reactor.mutate(action: action)
    switch effect.operation {
    // Already this action's activity: set once for the action, not around each mutation.
    case .just(let mutation):
      applyWithinAction(mutation, id: id, of: reactor)
    case .sequence(let mutations):
      for mutation in mutations { applyWithinAction(mutation, id: id, of: reactor) }
    default:
      start(effect, action: id)
    }
    ReactorActivity.restore(outer)
    isHandlingAction = false
    endUnit()
    ReactorActivity.delivered = outerDelivered
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
}
