import ReactorTracing

/// The one comparison of a mutate replay with its trace, effects run or played back.
///
/// In the order of the trace, every mutation (label, value, cause) is compared with the
/// replay's; with effects played back (a player), each sent action's effects (how many, their
/// names) and the cancellations it made are compared too, and the state `reduce` returned for
/// each mutation (its hash). With effects run, an effect's mutations are the mutations of the
/// action that started it, since today's effects are not matched with recorded ones.
@MainActor
struct MutateComparison<Action: Sendable, Mutation: Sendable, State: Sendable> {
  /// What caused a mutation, in the trace's terms.
  enum Cause: Equatable {
    /// A sent action's `mutate` (or, effects run, one of its effects), by position.
    case action(Int)
    /// A recorded effect.
    case effect(Int)
    /// One of today's effects the recording does not have.
    case unmatched(Int)
    /// A stream.
    case stream(String)
  }

  struct Produced {
    var sequence: Int
    var line: Int?
    var label: String
    var value: JSONValue?
    var cause: Cause
    var hash: TraceHash
    var state: TraceEvent.StateChange
  }

  let timeline: RecordedTimeline
  /// The player of the recorded effects; `nil` when effects run.
  let player: RecordedEffectPlayer<Action, Mutation, State>?
  /// The recorded mutations the replay must produce, by line index.
  private let recorded: [Int: Produced]

  init(_ timeline: RecordedTimeline, player: RecordedEffectPlayer<Action, Mutation, State>?) {
    self.timeline = timeline
    self.player = player
    var recorded: [Int: Produced] = [:]
    for (index, line) in timeline.lines.enumerated() {
      guard case .mutation(let mutation) = line.event.kind else { continue }
      let cause: Cause?
      switch mutation.cause {
      case .action(let id): cause = timeline.positions[id].map(Cause.action)
      case .effect(_, let action) where player == nil:
        cause = timeline.positions[action].map(Cause.action)
      case .effect(let effect, _):
        let played = timeline.effects[effect]
        cause =
          played.map { $0.isCarriedOver || timeline.positions[$0.action] != nil } == true
          ? .effect(effect) : nil
      case .stream(let name): cause = .stream(name)
      }
      guard let cause else { continue }
      recorded[index] = Produced(
        sequence: line.event.sequence, line: line.line, label: mutation.label,
        value: mutation.value, cause: cause, hash: mutation.stateHash, state: mutation.state)
    }
    self.recorded = recorded
  }

  /// The mutations among a replay's recorded `events`, each with its cause.
  private func replayed(_ events: [TraceEvent]) -> [Produced] {
    var positions: [Int: Int] = [:]
    var replayed: [Produced] = []
    for event in events {
      switch event.kind {
      case .action(let action) where action.source == .sent:
        positions[action.id] = positions.count
      case .mutation(let mutation):
        let cause: Cause?
        switch mutation.cause {
        case .action(let id): cause = positions[id].map(Cause.action)
        case .effect(_, let action) where player == nil:
          cause = positions[action].map(Cause.action)
        case .effect(let effect, 0): cause = .effect(effect)
        case .effect(let effect, let action):
          if let played = player?.recordedEffect[effect] {
            cause = .effect(played)
          } else {
            cause = positions[action] == nil ? nil : .unmatched(effect)
          }
        case .stream(let name): cause = .stream(name)
        }
        guard let cause else { continue }
        replayed.append(
          Produced(
            sequence: event.sequence, line: nil, label: mutation.label, value: mutation.value,
            cause: cause, hash: mutation.stateHash, state: mutation.state))
      default:
        break
      }
    }
    return replayed
  }

  /// Compares the replay's recorded `events` with the trace.
  ///
  /// All of the trace is compared, or only its lines before the line at index `limit`, the
  /// sent action about to be sent. Mutations the replay made beyond those lines are compared
  /// now when effects run (an effect ran ahead of the recording), and left for later when
  /// they are played back.
  func compare(_ events: [TraceEvent], before limit: Int? = nil) -> ReplayResult {
    var replayed = replayed(events)
    // A trace cut off (no end line) stops part way through the last moment it recorded, and
    // one with a gap is replayed up to it: the mutations the replay produced after the
    // recorded ones are beyond what it compares.
    if limit == nil, !timeline.hasEndLine || timeline.dropped > 0,
      replayed.count > recorded.count
    {
      replayed.removeLast(replayed.count - recorded.count)
    }
    let comparesAhead = player == nil
    var checked = 0
    var next = 0
    for (index, line) in timeline.lines.enumerated() {
      if let limit, index >= limit, !comparesAhead || next >= replayed.count { break }
      switch line.event.kind {
      case .action(let action) where action.source == .sent:
        guard let player, let position = timeline.positions[action.id] else { continue }
        if let reason = effectsDiffer(at: position, player)
          ?? cancellationsDiffer(at: position, player)
        {
          return ReplayResult(
            stepsChecked: checked,
            divergence: ReplayDivergence(
              sequence: line.event.sequence, line: line.line, mutation: nil,
              action: action.label, reason: reason, diff: nil))
        }
      case .mutation:
        guard let expected = recorded[index] else { continue }
        guard next < replayed.count else {
          return ReplayResult(
            stepsChecked: checked,
            divergence: MutationDivergence.missing(
              sequence: expected.sequence, line: expected.line, label: expected.label,
              action: action(of: expected.cause),
              recorded: text(expected.label, expected.cause)))
        }
        let actual = replayed[next]
        next += 1
        if expected.label != actual.label || expected.value != actual.value
          || expected.cause != actual.cause
        {
          return ReplayResult(
            stepsChecked: checked,
            divergence: MutationDivergence.differing(
              sequence: expected.sequence, line: expected.line, label: expected.label,
              action: action(of: expected.cause), values: (expected.value, actual.value),
              recorded: text(expected.label, expected.cause),
              replayed: text(actual.label, actual.cause)))
        }
        if player != nil, expected.hash != actual.hash {
          return ReplayResult(
            stepsChecked: checked,
            divergence: ReplayDivergence(
              sequence: expected.sequence, line: expected.line, mutation: expected.label,
              action: action(of: expected.cause),
              reason: "today's reduce returns another state for this mutation than the recorded "
                + "one (state hash \(actual.hash), recorded \(expected.hash))",
              diff: "the state's change (recorded → replayed):\n"
                + "- \(describe(expected.state))\n+ \(describe(actual.state))"))
        }
        checked += 1
      default:
        break
      }
    }
    if limit == nil || comparesAhead, next < replayed.count {
      let extra = replayed[next]
      return ReplayResult(
        stepsChecked: checked,
        divergence: MutationDivergence.extra(
          sequence: timeline.lastSequence, action: action(of: extra.cause),
          replayed: text(extra.label, extra.cause)))
    }
    return ReplayResult(stepsChecked: checked, divergence: nil)
  }

  private func describe(_ change: TraceEvent.StateChange) -> String {
    switch change {
    case .snapshot(let json): json.serializedString
    case .diff(let operations): JSONValue.array(operations.map(\.json)).serializedString
    case .description(let text): text
    }
  }
}
