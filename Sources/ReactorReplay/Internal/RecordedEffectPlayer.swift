import ReactorCore
import ReactorTracing

/// Plays a trace's effects back through a reactor's runtime instead of running their bodies:
/// the ``EffectRunner`` of a mutate replay with ``ReplayEffects/recorded``.
///
/// Each effect today's `mutate` starts is matched with the recorded effect its action started
/// at the same place (the action's first effect with its first, and so on). Its body is
/// replaced by one that delivers the recorded prefix (what the effect sent before its first
/// suspension), then waits for the replay to deliver the rest at the recorded times and to end
/// it as the recording did. An effect the recording does not have waits, sending nothing,
/// until it is cancelled or the replay ends.
@MainActor
final class RecordedEffectPlayer<Action: Sendable, Mutation: Sendable, State: Sendable>:
  EffectRunner
{
  /// The error an effect played back throws to end as the recorded one failed.
  struct RecordedFailure: Error, CustomStringConvertible {
    var description: String
  }

  typealias Runtime = ReactorRuntime<Action, Mutation, State>

  private let timeline: RecordedTimeline
  private let mutations: [Int: Mutation]
  private weak var runtime: Runtime?

  /// The sent action (position) being handled while the replay sends it.
  var currentPosition: Int?
  /// Positions of today's action ids.
  private(set) var positions: [Int: Int] = [:]
  /// Today's effects, by id.
  private(set) var runs: [Int: EffectRun] = [:]
  /// Today's effects each sent action (position) started, in order.
  private(set) var effectsOfPosition: [Int: [Int]] = [:]
  /// The recorded effect each of today's effects plays.
  private(set) var recordedEffect: [Int: Int] = [:]
  /// Today's effect playing each recorded effect.
  private(set) var playingEffect: [Int: Int] = [:]
  /// The cancellations today's code made: today's effect, and the position of the action
  /// that cancelled it (`nil` for an action that was not sent).
  private(set) var cancellations: [(effect: Int, position: Int?)] = []
  private var cancelled: Set<Int> = []
  /// How each waiting effect body is ended, by today's effect id.
  private var waiting: [Int: AsyncThrowingStream<Void, any Error>.Continuation] = [:]

  init(timeline: RecordedTimeline, mutations: [Int: Mutation], runtime: Runtime) {
    self.timeline = timeline
    self.mutations = mutations
    self.runtime = runtime
  }

  func body(
    for effect: EffectRun, running body: @escaping ReactorCore.Effect<Mutation>.Body
  ) -> ReactorCore.Effect<Mutation>.Body {
    runs[effect.effect] = effect
    if positions[effect.action] == nil, let currentPosition {
      positions[effect.action] = currentPosition
    }
    let (stream, continuation) = AsyncThrowingStream<Void, any Error>.makeStream()
    waiting[effect.effect] = continuation
    let wait: ReactorCore.Effect<Mutation>.Body = { _ in for try await _ in stream {} }
    guard let position = positions[effect.action] else { return wait }
    let index = effectsOfPosition[position, default: []].count
    effectsOfPosition[position, default: []].append(effect.effect)
    let started = timeline.effectsOfAction[timeline.actions[position].id] ?? []
    guard index < started.count, let recorded = timeline.effects[started[index]] else {
      return wait
    }
    recordedEffect[effect.effect] = recorded.id
    playingEffect[recorded.id] = effect.effect
    return { [self] _ in
      for line in recorded.prefix { deliver(line, of: recorded.id) }
      if recorded.endsInPrefix, let end = recorded.end {
        waiting[effect.effect] = nil
        switch end.outcome {
        case .finished: return
        case .failed(let message): throw RecordedFailure(description: message)
        case .cancelled: throw CancellationError()
        }
      }
      for try await _ in stream {}
    }
  }

  func effectWillCancel(_ effect: Int, byAction action: Int) {
    guard !cancelled.contains(effect) else { return }
    if positions[action] == nil, let currentPosition { positions[action] = currentPosition }
    cancelled.insert(effect)
    cancellations.append((effect, positions[action]))
    waiting.removeValue(forKey: effect)?.finish(throwing: CancellationError())
  }

  /// Delivers the recorded mutation at `index`, sent by the recorded effect `effect`, if the
  /// effect playing it is still running (or was already running when the trace starts).
  func deliver(_ index: Int, of effect: Int) {
    guard let mutation = mutations[index], let runtime else { return }
    if timeline.effects[effect]?.isCarriedOver == true {
      // Action 0, which no action of the replay has: an effect of before the trace.
      runtime.replay(mutation, as: .effect(effect, action: 0))
      return
    }
    guard let playing = playingEffect[effect], !cancelled.contains(playing),
      let run = runs[playing]
    else { return }
    runtime.replay(mutation, as: .effect(playing, action: run.action))
  }

  /// Delivers the recorded stream mutation at `index`.
  func deliverStream(_ index: Int, name: String) {
    guard let mutation = mutations[index] else { return }
    runtime?.replay(mutation, as: .stream(name))
  }

  /// Ends the recorded effect `effect` as the recording did, at its end line; a cancellation
  /// the recording puts on an action is left to today's code.
  func end(_ effect: Int, outcome: TraceEvent.Outcome) {
    guard let recorded = timeline.effects[effect], !recorded.endsInPrefix,
      let playing = playingEffect[effect], let continuation = waiting[playing]
    else { return }
    switch outcome {
    case .finished: continuation.finish()
    case .failed(let message): continuation.finish(throwing: RecordedFailure(description: message))
    case .cancelled:
      guard recorded.canceller == nil else { return }
      continuation.finish(throwing: CancellationError())
    }
    waiting[playing] = nil
  }

  /// Ends every body still waiting: the replay is over.
  func finish() {
    for continuation in waiting.values { continuation.finish(throwing: CancellationError()) }
    waiting.removeAll()
  }
}
