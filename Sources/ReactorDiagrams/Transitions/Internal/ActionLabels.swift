import ReactorTracing

/// The labels of the actions that may still send mutations, while a trace is streamed.
///
/// A mutation names its action by id. Only the latest action (for synchronous mutations)
/// and the actions with running effects are kept, so memory follows the reactor's
/// concurrency, not the trace's length.
struct ActionLabels {
  private var labels: [Int: String] = [:]
  private var runningEffects: [Int: Int] = [:]
  private var effectActions: [Int: Int] = [:]
  private var latest: Int?

  mutating func record(_ action: TraceEvent.Action) {
    if let latest, runningEffects[latest, default: 0] == 0 {
      labels[latest] = nil
    }
    latest = action.id
    switch action.source {
    case .sent: labels[action.id] = action.label
    case .stream(let stream): labels[action.id] = stream + ": " + action.label
    }
  }

  mutating func effectStarted(_ start: TraceEvent.EffectStart) {
    effectActions[start.effect] = start.action
    runningEffects[start.action, default: 0] += 1
  }

  mutating func effectEnded(_ end: TraceEvent.EffectEnd) {
    guard let action = effectActions.removeValue(forKey: end.effect) else { return }
    let running = runningEffects[action, default: 1] - 1
    runningEffects[action] = running > 0 ? running : nil
    if running <= 0 && action != latest { labels[action] = nil }
  }

  func label(for cause: TraceEvent.Cause) -> String {
    switch cause {
    case .stream(let stream): "stream " + stream
    case .action(let id), .effect(_, let id): labels[id] ?? "action #\(id)"
    }
  }
}
