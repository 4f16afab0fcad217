import ReactorTracing

/// How coverage reads a trace: its initial state, then each mutation with the states around
/// it and the action it is credited to.
enum TraceWalk {
  /// One mutation of a trace.
  struct Step {
    /// The state before it.
    var source: TraceHeader.State
    /// The state after it.
    var target: TraceHeader.State
    /// The mutation's label.
    var mutation: String
    /// The label of the action it is credited to, or `stream name`.
    var action: String
    /// Whether it is credited to a stream no action of the reactor published.
    var isStream: Bool
  }

  /// Reads every trace `openers` open, calling `start` with each one's initial state and
  /// `step` with each of its mutations.
  ///
  /// A mutation is credited by ``ReactorTracing/TraceEvent/Mutation/attributedCause(reactor:)``
  /// (docs/semantics.md): a stream's mutation whose element the reactor's own action
  /// published is that action's, as the exploration counts it.
  /// - Throws: The error an opener or a reader throws.
  static func walk(
    _ openers: [(reactor: Int?, open: () throws -> TraceReader)],
    start: (TraceHeader.State) -> Void, step: (Step) -> Void
  ) throws {
    for (reactor, open) in openers {
      let reader = try open()
      var labels: [Int: String] = [:]
      var current = reader.header.initialState
      start(current)
      while let event = try reader.next() {
        switch event.kind {
        case .action(let action):
          labels[action.id] = action.label
        case .mutation(let mutation):
          let cause = mutation.attributedCause(reactor: reactor)
          let action: String =
            switch cause {
            case .action(let id), .effect(_, let id): labels[id] ?? "action #\(id)"
            case .stream(let name): "stream " + name
            }
          var isStream = false
          if case .stream = cause { isStream = true }
          let next = reader.currentState
          step(
            Step(
              source: current, target: next, mutation: mutation.label, action: action,
              isStream: isStream))
          current = next
        default:
          break
        }
      }
    }
  }
}
