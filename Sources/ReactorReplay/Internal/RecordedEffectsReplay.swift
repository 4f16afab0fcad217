import ReactorCore
import ReactorTracing

/// Mutate replay with effects played back from the recording (``ReplayEffects/recorded``).
///
/// Sent actions go to the reactor at their recorded times and `mutate` runs for real; the
/// effects it starts are played by a ``RecordedEffectPlayer``, and the recorded mutations of
/// streams are delivered too. Afterwards, in the order of the trace, each sent action's
/// effects (how many, their names) and the cancellations it made are compared, and every
/// mutation (label, value, cause) and the state `reduce` returned for it (its hash).
///
/// As with effects that run, the replay stops at the first divergence: before each action is
/// sent, what came before it in the trace is compared, and when it differs the action is not
/// sent (a reactor whose state left the recorded path may trap on it).
@MainActor
enum RecordedEffectsReplay {
  /// What caused a mutation, in the trace's terms.
  private enum Cause: Equatable {
    /// A sent action's `mutate`, by position.
    case action(Int)
    /// A recorded effect.
    case effect(Int)
    /// One of today's effects the recording does not have.
    case unmatched(Int)
    /// A stream.
    case stream(String)
  }

  private struct Produced {
    var sequence: Int
    var line: Int?
    var label: String
    var value: JSONValue?
    var cause: Cause
    var hash: TraceHash
    var state: TraceEvent.StateChange
  }

  static func run<R: Reactor>(
    _ reader: TraceReader, through reactor: R, clock: any Clock<Duration>,
    advance: (Duration) async -> Void, allowingReactorMismatch: Bool,
    willSend: ((_ sequence: Int, _ label: String) -> Void)? = nil
  ) async throws(ReplayError) -> ReplayResult {
    let header = reader.header
    let (player, evolution) = try Self.player(
      reader, for: reactor, allowingReactorMismatch: allowingReactorMismatch, isInSession: false)
    let timeline = player.timeline
    var actions: [R.Action] = []
    for action in timeline.actions {
      actions.append(
        try ReplayChecks.decode(
          R.Action.self, from: action.value, of: .action, evolution: evolution, line: action.line,
          sequence: action.sequence, label: action.label
        ) { try CodableValues.decodeOrThrow(R.Action.self, from: $0) })
    }
    if header.window != nil { try start(reactor, from: header) }

    reactor.runtime.effectRunner = player
    defer { reactor.runtime.effectRunner = nil }
    let recorder = try ReplayChecks.recorder(of: reactor, header: header, clock: clock)
    // Built now: a window may start with mutations, delivered before any action is sent.
    _ = reactor.state
    var divergence: ReplayResult?
    _ = try await MutateReplayDriver.drive(timeline, advance: advance, player: player) { position in
      let action = timeline.actions[position]
      // Stop at the first divergence: what came before this action must match.
      let before = compare(
        timeline, replayed: recorder.events, player: player, before: action.index)
      if before.divergence != nil {
        divergence = before
        return false
      }
      willSend?(action.sequence, action.label)
      player.currentPosition = position
      reactor.send(actions[position])
      player.currentPosition = nil
      return true
    }
    recorder.stop()
    player.finish()
    if let error = player.error { throw error }

    var result = divergence ?? compare(timeline, replayed: recorder.events, player: player)
    result.warnings = reader.warnings
    result.schemaChanges = evolution.changes
    result.droppedEventCount = timeline.dropped
    result.playedEffects = player.playedEffects(reactor: nil)
    return result
  }

  /// Reads `reader` (a trace of `R`, or a reactor's lane of a session) and makes the player
  /// of its effects for `reactor`'s runtime, not attached yet.
  /// - Parameters:
  ///   - reader: The trace.
  ///   - reactor: The reactor the replay runs.
  ///   - allowingReactorMismatch: Whether the trace may have been recorded from another type.
  ///   - isInSession: Whether the reactor runs with the session's other reactors.
  /// - Returns: The player, and how the reactor's types changed since the recording.
  /// - Throws: ``ReplayError`` when the trace does not replay through `R`; a mutation the
  ///   player delivers that does not decode is its ``RecordedEffectPlayer/error``.
  static func player<R: Reactor>(
    _ reader: TraceReader, for reactor: R, allowingReactorMismatch: Bool, isInSession: Bool
  ) throws(ReplayError) -> (
    player: RecordedEffectPlayer<R.Action, R.Mutation, R.State>, evolution: SchemaEvolution
  ) {
    let evolution = try ReplayChecks.check(
      reader.header, for: R.self, allowingReactorMismatch: allowingReactorMismatch,
      using: [.action, .mutation])
    guard CodableValues.isCodable(R.Action.self) else { throw .notCodable("Action") }
    guard CodableValues.isCodable(R.Mutation.self) else { throw .notCodable("Mutation") }
    let timeline = try RecordedTimeline(reader)
    // The mutations the replay delivers itself (those of effects and streams), each decoded
    // as it is delivered, inside the code that made it in the recording.
    let player = RecordedEffectPlayer<R.Action, R.Mutation, R.State>(
      timeline: timeline,
      decode: { index throws(ReplayError) in
        let line = timeline.lines[index]
        guard case .mutation(let mutation) = line.event.kind, let value = mutation.value else {
          throw .missingValue(line: line.line, what: "mutation")
        }
        return try ReplayChecks.decode(
          R.Mutation.self, from: value, of: .mutation, evolution: evolution, line: line.line,
          sequence: line.event.sequence, label: mutation.label
        ) { try CodableValues.decodeOrThrow(R.Mutation.self, from: $0) }
      }, runtime: reactor.runtime, isInSession: isInSession)
    return (player, evolution)
  }

  /// Makes `reactor` start from the state a windowed trace starts with.
  private static func start<R: Reactor>(_ reactor: R, from header: TraceHeader)
    throws(ReplayError)
  {
    guard CodableValues.isCodable(R.State.self) else { throw .notCodable("State") }
    guard case .json(let json) = header.initialState else {
      throw .missingValue(line: 1, what: "initial state")
    }
    let state: R.State
    do {
      state = try CodableValues.decodeOrThrow(R.State.self, from: json)
    } catch {
      throw .undecodable(line: 1, reason: "the recorded initial state: \(error)")
    }
    guard reactor.runtime.start(from: state) else {
      throw .undecodable(
        line: 1,
        reason: "the recorded initial state: the reactor was already used; replay through a "
          + "fresh one")
    }
  }

  /// Compares the replay with the trace: all of it, or only its lines before the line at
  /// index `limit` (then mutations the replay made beyond them are left for later).
  private static func compare(
    _ timeline: RecordedTimeline, replayed events: [TraceEvent],
    player: RecordedEffectPlayer<some Sendable, some Sendable, some Sendable>,
    before limit: Int? = nil
  ) -> ReplayResult {
    var recorded: [Int: Produced] = [:]
    for (index, line) in timeline.lines.enumerated() {
      guard case .mutation(let mutation) = line.event.kind else { continue }
      let cause: Cause?
      switch mutation.cause {
      case .action(let id): cause = timeline.positions[id].map(Cause.action)
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
        case .effect(let effect, 0): cause = .effect(effect)
        case .effect(let effect, let action):
          if let played = player.recordedEffect[effect] {
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
    if !timeline.hasEndLine || timeline.dropped > 0, replayed.count > recorded.count {
      replayed.removeLast(replayed.count - recorded.count)
    }

    let wording = Wording(timeline: timeline, player: player)
    var checked = 0
    var next = 0
    for (index, line) in timeline.lines.enumerated() {
      if let limit, index >= limit { break }
      switch line.event.kind {
      case .action(let action) where action.source == .sent:
        guard let position = timeline.positions[action.id] else { continue }
        if let reason = wording.effectsDiffer(at: position)
          ?? wording.cancellationsDiffer(at: position)
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
              action: wording.action(of: expected.cause),
              recorded: wording.text(expected.label, expected.cause)))
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
              action: wording.action(of: expected.cause), values: (expected.value, actual.value),
              recorded: wording.text(expected.label, expected.cause),
              replayed: wording.text(actual.label, actual.cause)))
        }
        if expected.hash != actual.hash {
          return ReplayResult(
            stepsChecked: checked,
            divergence: ReplayDivergence(
              sequence: expected.sequence, line: expected.line, mutation: expected.label,
              action: wording.action(of: expected.cause),
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
    if limit == nil, next < replayed.count {
      let extra = replayed[next]
      return ReplayResult(
        stepsChecked: checked,
        divergence: MutationDivergence.extra(
          sequence: timeline.lastSequence, action: wording.action(of: extra.cause),
          replayed: wording.text(extra.label, extra.cause)))
    }
    return ReplayResult(stepsChecked: checked, divergence: nil)
  }

  private static func describe(_ change: TraceEvent.StateChange) -> String {
    switch change {
    case .snapshot(let json): json.serializedString
    case .diff(let operations): JSONValue.array(operations.map(\.json)).serializedString
    case .description(let text): text
    }
  }

  /// The words of a divergence: effects, actions and causes named as a reader knows them.
  @MainActor
  private struct Wording<Action: Sendable, Mutation: Sendable, State: Sendable> {
    let timeline: RecordedTimeline
    let player: RecordedEffectPlayer<Action, Mutation, State>

    /// `updateQuery("re") (sent action 2)`.
    func action(at position: Int) -> String {
      "\(timeline.actions[position].label) (sent action \(position + 1))"
    }

    func action(of cause: Cause) -> String? {
      switch cause {
      case .action(let position): return timeline.actions[position].label
      case .effect(let effect):
        guard let action = timeline.effects[effect]?.action,
          let position = timeline.positions[action]
        else { return nil }
        return timeline.actions[position].label
      case .unmatched(let effect):
        guard let action = player.runs[effect]?.action,
          let position = player.positions[action]
        else { return nil }
        return timeline.actions[position].label
      case .stream: return nil
      }
    }

    func text(_ label: String, _ cause: Cause) -> String {
      switch cause {
      case .action(let position): "\(label) from action \(action(at: position))"
      case .effect(let effect): "\(label) from \(timeline.describe(effect: effect))"
      case .unmatched(let effect): "\(label) from today's \(today(effect)), not in the recording"
      case .stream(let name): "\(label) from stream \(name)"
      }
    }

    /// One of today's effects as `mutate` asked for it: `effect `search` (id "search",
    /// cancelInFlight)`.
    func today(_ effect: Int) -> String {
      guard let run = player.runs[effect] else { return "effect \(effect)" }
      var text = run.name.map { "effect `\($0)`" } ?? "an unnamed effect"
      var notes: [String] = []
      if let id = run.id { notes.append("id \(String(reflecting: id.base))") }
      if run.cancelsInFlight { notes.append("cancelInFlight") }
      if !notes.isEmpty { text += " (" + notes.joined(separator: ", ") + ")" }
      return text
    }

    /// How the effects the action at `position` started differ from the recorded ones.
    func effectsDiffer(at position: Int) -> String? {
      let recorded = timeline.effectsOfAction[timeline.actions[position].id] ?? []
      let todays = player.effectsOfPosition[position] ?? []
      for index in 0..<max(recorded.count, todays.count) {
        guard index < todays.count else {
          return "the recording starts \(timeline.describe(effect: recorded[index])) at this "
            + "action; today's mutate "
            + (todays.isEmpty ? "starts no effect" : "starts only \(todays.count)")
        }
        guard index < recorded.count else {
          return "today's mutate starts \(today(todays[index])) at this action; the recording "
            + (recorded.isEmpty ? "has none" : "starts only \(recorded.count)")
        }
        let name = timeline.effects[recorded[index]]?.name
        if name != player.runs[todays[index]]?.name {
          return "the recording starts \(timeline.describe(effect: recorded[index])) at this "
            + "action; today's mutate starts \(today(todays[index])) instead"
        }
        if let reason = identityDiffers(recorded: recorded[index], today: todays[index]) {
          return reason
        }
      }
      return nil
    }

    /// How today's effect differs from the recorded one it plays in `id` or `cancelInFlight`,
    /// in a trace that records them.
    func identityDiffers(recorded id: Int, today effect: Int) -> String? {
      guard timeline.recordsEffectIDs, let recorded = timeline.effects[id],
        let run = player.runs[effect]
      else { return nil }
      let todayID = run.id.map { String(describing: $0.base) }
      let started = run.name.map { "effect `\($0)`" } ?? "an unnamed effect"
      if todayID != recorded.cancelID {
        return "today's mutate starts \(started) "
          + (todayID.map { "with id \($0)" } ?? "with no id") + "; the recording "
          + (recorded.cancelID.map { "has id \($0)" } ?? "has none")
          + " (\(timeline.describe(effect: id)))"
      }
      if run.cancelsInFlight != recorded.cancelsInFlight {
        return run.cancelsInFlight
          ? "today's mutate starts \(started) with cancelInFlight; the recording has none "
            + "(\(timeline.describe(effect: id)))"
          : "the recording starts \(timeline.describe(effect: id)) with cancelInFlight; "
            + "today's mutate starts \(started) without"
      }
      return nil
    }

    /// How the cancellations the action at `position` made differ from the recorded ones.
    func cancellationsDiffer(at position: Int) -> String? {
      for cancellation in player.cancellations where cancellation.position == position {
        guard let played = player.recordedEffect[cancellation.effect],
          let effect = timeline.effects[played], !effect.cancellers.contains(position)
        else { continue }
        let recording: String
        if let canceller = effect.canceller {
          recording = "the recording cancels it at action \(action(at: canceller))"
        } else {
          switch effect.end?.outcome {
          case nil: recording = "in the recording it is still running when the trace ends"
          case .finished?: recording = "in the recording it finishes"
          case .failed?: recording = "in the recording it fails"
          case .cancelled?: recording = "in the recording no action cancels it"
          }
        }
        return "today's code cancels \(timeline.describe(effect: played)) at this action; "
          + recording
      }
      for id in timeline.effectOrder {
        guard let effect = timeline.effects[id], effect.canceller == position,
          let playing = player.playingEffect[id]
        else { continue }
        let cancelled = player.cancellations.contains { cancellation in
          cancellation.effect == playing
            && cancellation.position.map(effect.cancellers.contains) == true
        }
        if !cancelled {
          return "the recording cancels \(timeline.describe(effect: id)) at this action; "
            + "today's code does not"
        }
      }
      return nil
    }
  }
}
