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
///
/// Replays drive it line by line with ``play(_:)``: one trace, or each reactor's lane of a
/// session.
@MainActor
final class RecordedEffectPlayer<Action: Sendable, Mutation: Sendable, State: Sendable>:
  EffectRunner
{
  /// The error an effect played back throws to end as the recorded one failed.
  struct RecordedFailure: Error, CustomStringConvertible {
    var description: String
  }

  typealias Runtime = ReactorRuntime<Action, Mutation, State>

  let timeline: RecordedTimeline
  /// Decodes the recorded mutation on the timeline's line at an index: called as the
  /// mutation is delivered, as the code that made it in the recording.
  private let decode: (Int) throws(ReplayError) -> Mutation
  /// The first recorded mutation that did not decode; the replay fails with it.
  private(set) var error: ReplayError?
  private weak var runtime: Runtime?
  /// Whether the trace is a reactor's lane of a whole session replayed with its other
  /// reactors: today's action ids are the recorded ones (the session's reactors run the same
  /// path), and a stream element published by a reactor's synchronous code is published
  /// again by today's code rather than delivered from the recording.
  private let isInSession: Bool

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

  init(
    timeline: RecordedTimeline, decode: @escaping (Int) throws(ReplayError) -> Mutation,
    runtime: Runtime,
    isInSession: Bool = false
  ) {
    self.timeline = timeline
    self.decode = decode
    self.runtime = runtime
    self.isInSession = isInSession
  }

  /// Plays the trace's line at `index` that is not a sent action: the recorded mutation of
  /// an effect or a stream is delivered, an effect's recorded end is reproduced.
  /// - Parameter index: The line's index in the timeline.
  /// - Returns: Whether an effect was ended, so that what waits for it must run before the
  ///   next line (advance the clock by zero).
  func play(_ index: Int) -> Bool {
    switch timeline.lines[index].event.kind {
    case .mutation(let mutation):
      switch mutation.cause {
      case .effect(let effect, _):
        if timeline.effects[effect]?.prefix.contains(index) != true { deliver(index, of: effect) }
      case .stream(let name):
        // In a session, what a reactor's synchronous code published is published again; so
        // is what a reactor recorded alone published in `mutate` (its effects are played
        // back, so what they published is delivered from the recording).
        if isInSession, let from = mutation.from, from.effect == nil { return false }
        if let publisher = mutation.publisher, publisher.effect == nil { return false }
        deliverStream(index, name: name, from: mutation.from)
      case .action:
        break
      }
      return false
    case .effectEnded(let recorded):
      end(recorded.effect, outcome: recorded.outcome)
      return true
    default:
      return false
    }
  }

  /// The position of the sent action with today's id `action`: the one being sent, or in a
  /// session the recorded action with the same id.
  private func position(ofAction action: Int) -> Int? {
    if let known = positions[action] { return known }
    let position = currentPosition ?? (isInSession ? timeline.positions[action] : nil)
    if let position { positions[action] = position }
    return position
  }

  func body(
    for effect: EffectRun, running body: @escaping ReactorCore.Effect<Mutation>.Body
  ) -> ReactorCore.Effect<Mutation>.Body {
    runs[effect.effect] = effect
    let (stream, continuation) = AsyncThrowingStream<Void, any Error>.makeStream()
    waiting[effect.effect] = continuation
    let wait: ReactorCore.Effect<Mutation>.Body = { _ in for try await _ in stream {} }
    guard let position = position(ofAction: effect.action) else { return wait }
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
    cancelled.insert(effect)
    cancellations.append((effect, position(ofAction: action)))
    waiting.removeValue(forKey: effect)?.finish(throwing: CancellationError())
  }

  /// Delivers the recorded mutation at `index`, sent by the recorded effect `effect`, if the
  /// effect playing it is still running (or was already running when the trace starts).
  func deliver(_ index: Int, of effect: Int) {
    guard let runtime else { return }
    if timeline.effects[effect]?.isCarriedOver == true {
      // A session replays from its start, where no effect runs yet: a lane's effect that
      // did not start in it is not one of the run's, and the replay reports its mutation
      // as missing.
      guard !isInSession,
        let mutation = make(
          index, as: ReactorActivity(reactor: runtime.activityID, effect: effect))
      else { return }
      // Action 0, which no action of the replay has: an effect of before the trace.
      runtime.replay(mutation, as: .effect(effect, action: 0))
      return
    }
    guard let playing = playingEffect[effect], !cancelled.contains(playing),
      let run = runs[playing],
      let mutation = make(
        index,
        as: ReactorActivity(reactor: runtime.activityID, action: run.action, effect: playing))
    else { return }
    runtime.replay(mutation, as: .effect(playing, action: run.action))
  }

  /// Decodes the recorded mutation at `index` as the code `activity` names runs, so that the
  /// reactors decoding creates get the creator they had in the recording; `nil` (and the
  /// error kept) when it does not decode.
  private func make(_ index: Int, as activity: ReactorActivity?) -> Mutation? {
    guard error == nil else { return nil }
    do throws(ReplayError) {
      return try ReactorActivity.making(as: activity) { () throws(ReplayError) in
        try decode(index)
      }
    } catch {
      self.error = error
      return nil
    }
  }

  /// Delivers the recorded stream mutation at `index`, as published by `from` (the
  /// reactor, action and effect a session records as the element's publisher).
  func deliverStream(_ index: Int, name: String, from: TraceEvent.ReactorOrigin?) {
    let origin = from.map {
      ReactorActivity(reactor: $0.reactor, action: $0.action, effect: $0.effect)
    }
    // The element was made by its publisher's code.
    guard let runtime, let mutation = make(index, as: origin) else { return }
    ReactorActivity.delivering(origin) { runtime.replay(mutation, as: .stream(name)) }
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

  /// The effects played back rather than run, in the trace's order.
  /// - Parameter reactor: The reactor's id in a session, or `nil` for a trace of one reactor.
  /// - Returns: The recorded effects a body of today's played, and those already running.
  func playedEffects(reactor: Int?) -> [PlayedEffect] {
    timeline.effectOrder.compactMap { id in
      guard let effect = timeline.effects[id], effect.isCarriedOver || playingEffect[id] != nil
      else { return nil }
      return PlayedEffect(
        effect: id, name: effect.name, isCarriedOver: effect.isCarriedOver, reactor: reactor)
    }
  }

  /// Ends every body still waiting: the replay is over.
  func finish() {
    for continuation in waiting.values { continuation.finish(throwing: CancellationError()) }
    waiting.removeAll()
  }
}
