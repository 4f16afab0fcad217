import ReactorTracing

/// The loop every mutate replay of one trace runs, effects run or played back: the test clock
/// is advanced to each recorded event's time and each sent action is sent again there.
///
/// With effects run (no player), only the sent actions matter: the clock goes from one to the
/// next, and the reactor's own effects and the fakes fill in between. With effects played
/// back, every line is visited at its time, and the player delivers what the recording holds
/// for effects and streams, and ends effects as recorded.
@MainActor
enum MutateReplayDriver {
  /// Replays `timeline` up to its end.
  /// - Parameters:
  ///   - timeline: The trace, read.
  ///   - advance: Advances the test clock by a duration.
  ///   - player: Plays effects back; `nil` when they run.
  ///   - send: Sends the sent action at a position among the sent actions, once the clock
  ///     reached its time; returns `false` to stop the replay there (the run so far already
  ///     diverged).
  /// - Returns: Whether the replay went to the end; the clock is then at the trace's last
  ///   time.
  /// - Throws: What `send` throws.
  static func drive(
    _ timeline: RecordedTimeline, advance: (Duration) async -> Void,
    player: (any RecordedLanePlayer)?,
    send: (_ position: Int) throws(ReplayError) -> Bool
  ) async throws(ReplayError) -> Bool {
    var elapsed = Duration.zero
    for (index, line) in timeline.lines.enumerated() {
      var position: Int?
      if case .action(let action) = line.event.kind, action.source == .sent {
        position = timeline.positions[action.id]
      }
      guard position != nil || player != nil else { continue }
      if line.event.time > elapsed {
        await advance(line.event.time - elapsed)
        elapsed = line.event.time
      }
      if let position {
        guard try send(position) else { return false }
      } else if let player, player.play(index) {
        // What waits for an effect that ended (the next step of a `concat`) goes on now.
        await advance(.zero)
      }
    }
    await advance(timeline.endTime > elapsed ? timeline.endTime - elapsed : .zero)
    return true
  }
}
