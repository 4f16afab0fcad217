import ReactorCore
import ReactorTracing

/// Plays back the effects of every reactor of a session replayed whole
/// (``ReplayEffects/recorded``): installed in front of the session recorder, it gives each
/// reactor the recorder records a ``RecordedEffectPlayer`` over that reactor's lane.
///
/// The replay then hands it every recorded event that is not a user action (``play(_:)``):
/// an effect's mutations and end go to the reactor that ran it, and a service's events
/// published by an effect that is not executed go, from the recording, to each reactor that
/// merged them, with the recorded publisher as their origin.
@MainActor
final class RecordedSessionPlayback: ReactorSessionObserver {
  private struct Lane {
    var player: any RecordedLanePlayer
    /// The reactor's type, as recorded.
    var type: String
    /// The index in the lane's timeline of each of its events, by session `seq`.
    var indexes: [Int: Int]
  }

  private let recorder: SessionRecorder
  private let session: SessionTrace
  private var lanes: [Int: Lane] = [:]
  /// The first reactor whose lane could not be played back, and why: its type, or a
  /// recorded mutation that did not decode as it was delivered.
  var error: ReplayError? {
    if let laneError { return laneError }
    for id in lanes.keys.sorted() {
      guard let lane = lanes[id], let error = lane.player.error else { continue }
      return .undecodable(line: 1, reason: "reactor \(id) (\(lane.type)): \(error)")
    }
    return nil
  }
  private var laneError: ReplayError?

  /// A playback of `session`'s effects into the reactors `recorder` records.
  init(_ session: SessionTrace, recorder: SessionRecorder) {
    self.session = session
    self.recorder = recorder
  }

  /// Lets the recorder record the reactor, then attaches the player of its lane.
  func reactorWillStart<R: Reactor>(_ reactor: R, createdBy parent: Int?) {
    recorder.reactorWillStart(reactor, createdBy: parent)
    guard error == nil, let id = reactor.runtime.sessionID, lanes[id] == nil,
      reactor.runtime.effectRunner == nil
    else { return }
    // A reactor the recording does not have runs as today's code has it: the replay reports
    // where it appears.
    guard let lane = session.lane(of: id) else { return }
    do throws(ReplayError) {
      let (player, _) = try RecordedEffectsReplay.player(
        ReplayChecks.open(lane, verifyingStates: false), for: reactor,
        allowingReactorMismatch: false, isInSession: true)
      reactor.runtime.effectRunner = player
      var indexes: [Int: Int] = [:]
      for (index, line) in player.timeline.lines.enumerated() {
        indexes[line.event.sequence] = index
      }
      lanes[id] = Lane(player: player, type: lane.header.reactor, indexes: indexes)
    } catch {
      laneError = .undecodable(line: 1, reason: "reactor \(id) (\(lane.header.reactor)): \(error)")
    }
  }

  /// Plays the recorded `event` of a reactor: delivers an effect's or a stream's mutation,
  /// ends an effect.
  /// - Returns: Whether an effect was ended, so that what waits for it must run first.
  func play(_ event: SessionEvent) -> Bool {
    guard case .reactor(let id, _) = event.kind, let lane = lanes[id],
      let index = lane.indexes[event.sequence]
    else { return false }
    return lane.player.play(index)
  }

  /// The effects played back, by reactor and in each lane's order.
  var playedEffects: [PlayedEffect] {
    lanes.keys.sorted().flatMap { lanes[$0]?.player.playedEffects(reactor: $0) ?? [] }
  }

  /// Ends every body still waiting: the replay is over.
  func finish() {
    for lane in lanes.values { lane.player.finish() }
  }
}
