import ReactorTracing

/// The labels of the actions that may still send mutations, while a trace is streamed.
///
/// A mutation names its action by id. The actions with running effects are kept, and so are
/// the latest ``retainedCount`` others: a `concat` may still send a mutation for its action
/// after the action's last effect ended, and a synchronous mutation follows its action. So
/// memory follows the reactor's concurrency, not the trace's length.
struct ActionLabels {
  /// How many actions without running effects keep their labels.
  static let retainedCount = 1024

  private var labels: [Int: String] = [:]
  private var runningEffects: [Int: Int] = [:]
  private var effectActions: [Int: Int] = [:]
  /// Actions whose labels may go once they are old enough, oldest first.
  private var retiring: [Int] = []
  private var retiringStart = 0
  /// How many times each action is in `retiring`.
  private var retiringCounts: [Int: Int] = [:]

  mutating func record(_ action: TraceEvent.Action) {
    switch action.source {
    case .sent: labels[action.id] = action.label
    case .stream(let stream): labels[action.id] = stream + ": " + action.label
    }
    retire(action.id)
  }

  mutating func effectStarted(_ start: TraceEvent.EffectStart) {
    effectActions[start.effect] = start.action
    runningEffects[start.action, default: 0] += 1
  }

  mutating func effectEnded(_ end: TraceEvent.EffectEnd) {
    guard let action = effectActions.removeValue(forKey: end.effect) else { return }
    let running = runningEffects[action, default: 1] - 1
    runningEffects[action] = running > 0 ? running : nil
    if running <= 0 { retire(action) }
  }

  func label(for cause: TraceEvent.Cause) -> String {
    switch cause {
    case .stream(let stream): "stream " + stream
    case .action(let id), .effect(_, let id): labels[id] ?? "action #\(id)"
    }
  }

  /// Queues `action` to lose its label after ``retainedCount`` newer ones, unless an effect
  /// of it is running by then.
  private mutating func retire(_ action: Int) {
    retiring.append(action)
    retiringCounts[action, default: 0] += 1
    guard retiring.count - retiringStart > Self.retainedCount else { return }
    let oldest = retiring[retiringStart]
    retiringStart += 1
    let remaining = retiringCounts[oldest, default: 1] - 1
    retiringCounts[oldest] = remaining > 0 ? remaining : nil
    if remaining == 0, runningEffects[oldest] == nil { labels[oldest] = nil }
    if retiringStart >= Self.retainedCount {
      retiring.removeFirst(retiringStart)
      retiringStart = 0
    }
  }
}
