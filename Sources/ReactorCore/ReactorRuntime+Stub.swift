// The stub: a test double that takes over the pipeline.

extension ReactorRuntime {
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
