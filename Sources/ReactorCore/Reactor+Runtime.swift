extension Reactor {
  /// The latest state delivered to observers.
  ///
  /// Before the pipeline is built it is ``Reactor/initialState`` (reading it does not build
  /// the pipeline). When ``send(_:)`` returns, it already includes every mutation the action
  /// produced synchronously. Inside `mutate` it is the last delivered state; inside `reduce`
  /// and `transform(state:)` the previous one; in an observer, the state being delivered.
  @inlinable
  public var currentState: State {
    runtime.current ?? initialState
  }

  /// Sends an action through the pipeline.
  ///
  /// On return, every mutation that the action produced synchronously (including those an
  /// ``Effect/run(id:cancelInFlight:name:_:)`` body sent before its first suspension) has been
  /// reduced into ``currentState`` and delivered to observers. Sent while another action is
  /// processed (from `mutate`, `reduce`, a `transform` hook or an observer), the action is
  /// queued first-in first-out and starts once every mutation the current action produced
  /// synchronously has reached every observer; the outermost `send` returns only when the
  /// queue is empty. With the stub enabled, the action is only recorded in ``stub``.
  /// - Parameter action: What the user did.
  @inlinable
  public func send(_ action: Action) {
    let runtime = self.runtime
    if runtime.isStubEnabled {
      recordStubbed(action)
      return
    }
    runtime.buildIfNeeded(self)
    runtime.send(action, to: self)
  }

  /// Sends an action that comes from outside the app (a live inspector's page or a client,
  /// issue 43), as ``send(_:)`` does; a monitor is told its origin is
  /// ``Origin/external(_:)`` with `source`, so a recording says where it came from.
  /// - Parameters:
  ///   - action: The action.
  ///   - source: Who sent it: `"page"` or `"client"`.
  public func send(_ action: Action, from source: String) {
    let runtime = self.runtime
    if runtime.isStubEnabled {
      recordStubbed(action)
      return
    }
    runtime.buildIfNeeded(self)
    runtime.send(action, from: source)
  }

  /// Sets the reactor's state from outside the app to a state a recording held after one of
  /// its events (a live inspector's page or a client, issue 43): "jump to the state after
  /// event N".
  ///
  /// The state becomes the one `reduce` starts from and is delivered to observers (through
  /// `transform(state:)`), as one unit of work, queued behind the one in progress. Later
  /// actions run from it; effects running at the jump keep running, and their mutations
  /// reduce from it. A monitor is told with
  /// ``ReactorMonitor/reactorDidJump(to:event:from:)``, so a recording holds the jump. With
  /// the stub enabled it does nothing.
  /// - Parameters:
  ///   - state: The state, as `reduce` returned it after that event.
  ///   - event: The `seq` of the recorded event whose state it is.
  ///   - source: Who asked for it: `"page"` or `"client"`.
  public func jump(to state: State, event: Int, from source: String) {
    let runtime = self.runtime
    guard !runtime.isStubEnabled else { return }
    runtime.buildIfNeeded(self)
    runtime.jump(to: state, event: event, from: source)
  }

  @inlinable
  func recordStubbed(_ action: Action) {
    // The stub exists after its first use; only that first use goes through `stub`. (Not
    // `??`: its autoclosure would be checked for main-actor isolation on every call.)
    if let stub = runtime.stub {
      stub.record(action)
    } else {
      stub.record(action)
    }
  }

  /// The states of this reactor: the latest one first, then every new one, in order.
  ///
  /// Every mutation produces a state, even an equal one; add `removeDuplicates()` where a
  /// binding wants only changes. Accessing it builds the pipeline, as ReactorKit's `state`
  /// does (unless the stub is enabled); reading ``currentState`` alone does not.
  @inlinable
  public var state: StateStream<State> {
    runtime.attach(self)
    if !runtime.isStubEnabled { runtime.buildIfNeeded(self) }
    return StateStream { [weak self] receive, finish in
      guard let self else {
        finish()
        return Subscription {}
      }
      runtime.attach(self)
      if !runtime.isStubEnabled { runtime.buildIfNeeded(self) }
      return runtime.observe(currentState: initialState, receive: receive, finish: finish)
    }
  }

  /// The values assigned to a ``Pulse`` of the state, one per assignment, from now on.
  ///
  /// Equal values assigned twice are delivered twice; mutations that do not assign the pulse
  /// deliver nothing. Unlike ReactorKit, a new observer does not receive the value assigned
  /// before it subscribed, so rebinding a view never shows the same alert again.
  /// - Parameter keyPath: The pulse's projected value, such as `\.$alertMessage`.
  /// - Returns: A stream of assigned values.
  public func pulse<Value: Sendable>(_ keyPath: KeyPath<State, Pulse<Value>>)
    -> StateStream<Value>
  {
    let states = state
    return StateStream { receive, finish in
      var lastCount: UInt?
      return states.subscribe(
        { state in
          let pulse = state[keyPath: keyPath]
          defer { lastCount = pulse.valueUpdatedCount }
          guard let lastCount, lastCount != pulse.valueUpdatedCount else { return }
          receive(pulse.value)
        }, finish)
    }
  }

  /// Whether the stub replaces the pipeline: actions are recorded in ``stub`` and neither
  /// `mutate` nor `reduce` runs.
  public var isStubEnabled: Bool {
    get { runtime.isStubEnabled }
    set { runtime.isStubEnabled = newValue }
  }

  /// The stub for view tests.
  ///
  /// Creating it (on first access) resets ``currentState`` to ``initialState``.
  public var stub: Stub<Action, State> {
    runtime.attach(self)
    return runtime.stub(initialState: initialState)
  }
}
