// What a replay uses: recorded mutations, and a start from a recorded state.

extension ReactorRuntime {
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
}
