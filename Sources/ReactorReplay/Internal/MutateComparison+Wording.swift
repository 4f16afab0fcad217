import ReactorCore
import ReactorTracing

/// The words of a divergence: effects, actions and causes named as a reader knows them.
extension MutateComparison {
  /// `updateQuery("re") (sent action 2)`.
  func action(at position: Int) -> String {
    "\(label(at: position)) (sent action \(position + 1))"
  }

  /// The label of the sent action at `position`, `#3` for one the trace does not have.
  private func label(at position: Int) -> String {
    timeline.actions.indices.contains(position)
      ? timeline.actions[position].label : "#\(position + 1)"
  }

  /// The label of the action behind a mutation with `cause`; with effects run, a stream's
  /// mutation is named by its stream.
  func action(of cause: Cause) -> String? {
    switch cause {
    case .action(let position): return label(at: position)
    case .effect(let effect):
      guard let action = timeline.effects[effect]?.action,
        let position = timeline.positions[action]
      else { return nil }
      return timeline.actions[position].label
    case .unmatched(let effect):
      guard let action = player?.runs[effect]?.action,
        let position = player?.positions[action]
      else { return nil }
      return label(at: position)
    case .stream(let name): return player == nil ? "stream \(name)" : nil
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
    guard let run = player?.runs[effect] else { return "effect \(effect)" }
    var text = run.name.map { "effect `\($0)`" } ?? "an unnamed effect"
    var notes: [String] = []
    if let id = run.id { notes.append("id \(String(reflecting: id.base))") }
    if run.cancelsInFlight { notes.append("cancelInFlight") }
    if !notes.isEmpty { text += " (" + notes.joined(separator: ", ") + ")" }
    return text
  }

  /// How the effects the action at `position` started differ from the recorded ones.
  func effectsDiffer(
    at position: Int, _ player: RecordedEffectPlayer<Action, Mutation, State>
  ) -> String? {
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
      if let reason = identityDiffers(recorded: recorded[index], today: todays[index], player) {
        return reason
      }
    }
    return nil
  }

  /// How today's effect differs from the recorded one it plays in `id` or `cancelInFlight`,
  /// in a trace that records them.
  private func identityDiffers(
    recorded id: Int, today effect: Int, _ player: RecordedEffectPlayer<Action, Mutation, State>
  ) -> String? {
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
  func cancellationsDiffer(
    at position: Int, _ player: RecordedEffectPlayer<Action, Mutation, State>
  ) -> String? {
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
