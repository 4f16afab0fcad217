// Jumps: the state set from outside the app to a recorded one (issue 43).

extension ReactorRuntime {
  /// The end of ``Reactor/jump(to:event:from:)``: makes `state` the last reduced state and
  /// delivers it, as one unit of work, or queues it behind the unit in progress.
  ///
  /// Later mutations reduce from it; effects running at the jump keep running.
  func jump(to state: State, event: Int, from source: String) {
    guard !isStubEnabled else { return }
    if isBusy {
      enqueue { [unowned(unsafe) self] in jump(to: state, event: event, from: source) }
      return
    }
    isBusy = true
    isEmitting = true
    reduced = state
    monitor?.reactorDidJump(to: state, event: event, from: source)
    if passesStatesThrough {
      notify(state)
    } else {
      for entry in stateEntries { entry(state, .external(source)) }
    }
    isEmitting = false
    endUnit()
  }
}
