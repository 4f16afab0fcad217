import ReactorTracing

/// The loop every mutate replay runs, of one trace or of a whole session, effects run or
/// played back: the test clock is advanced to each recorded event's time and each sent
/// action is sent again there.
///
/// With effects run (no player), only the sent actions matter: the clock goes from one to the
/// next, and the reactors' own effects and the fakes fill in between. With effects played
/// back, every event is visited at its time, and the player delivers what the recording holds
/// for effects and streams, and ends effects as recorded.
@MainActor
enum MutateReplayDriver {
  /// Replays the recorded events `0..<count` up to the last one, or until `send` stops.
  /// - Parameters:
  ///   - count: How many events were recorded.
  ///   - time: The recorded time of the event at an index.
  ///   - position: The position among the sent actions of the event at an index, `nil` for
  ///     an event that is not an action to send again.
  ///   - isJump: Whether the event at an index is a jump.
  ///   - advance: Advances the test clock by a duration.
  ///   - play: Plays back the event at an index that is not sent, once the clock reached its
  ///     time, and returns whether an effect ended; `nil` when effects run.
  ///   - jump: Performs the jump at an index (the state set from outside the app), once the
  ///     clock reached its time.
  ///   - send: Sends the action at a position, once the clock reached its time; returns
  ///     `false` to stop the replay there (the run so far already went another way).
  /// - Returns: Whether the replay went to the last event, and the time the clock reached.
  /// - Throws: What `play`, `jump` and `send` throw.
  static func drive(
    _ count: Int, time: (Int) -> Duration, position: (Int) -> Int?,
    isJump: (Int) -> Bool = { _ in false },
    advance: (Duration) async -> Void,
    play: ((Int) throws(ReplayError) -> Bool)?,
    jump: (Int) throws(ReplayError) -> Void = { _ in },
    send: (Int) throws(ReplayError) -> Bool
  ) async throws(ReplayError) -> (finished: Bool, elapsed: Duration) {
    var elapsed = Duration.zero
    for index in 0..<count {
      let sent = position(index)
      let jumps = sent == nil && isJump(index)
      guard sent != nil || jumps || play != nil else { continue }
      if time(index) > elapsed {
        await advance(time(index) - elapsed)
        elapsed = time(index)
      } else if sent != nil || jumps, play == nil {
        // As `record` does before every step, even at the same time: what the last action
        // ended goes on first (a cancelled effect's end), then this action is sent.
        await advance(.zero)
      }
      if let sent {
        guard try send(sent) else { return (false, elapsed) }
      } else if jumps {
        try jump(index)
      } else if let play, try play(index) {
        // What waits for an effect that ended (the next step of a `concat`) goes on now.
        await advance(.zero)
      }
    }
    return (true, elapsed)
  }

  /// Replays `timeline` up to its end, the one-reactor case of
  /// ``drive(_:time:position:advance:play:send:)``.
  /// - Parameters:
  ///   - timeline: The trace, read.
  ///   - advance: Advances the test clock by a duration.
  ///   - player: Plays effects back; `nil` when they run.
  ///   - jump: Sets the reactor's state as a recorded jump did, with the jump's line.
  ///   - send: Sends the sent action at a position among the sent actions, once the clock
  ///     reached its time; returns `false` to stop the replay there.
  /// - Returns: Whether the replay went to the end; the clock is then at the trace's last
  ///   time.
  /// - Throws: What `send` throws.
  static func drive(
    _ timeline: RecordedTimeline, advance: (Duration) async -> Void,
    player: (any RecordedLanePlayer)?,
    jump: (TraceEvent.Jump, _ line: Int) throws(ReplayError) -> Void,
    send: (_ position: Int) throws(ReplayError) -> Bool
  ) async throws(ReplayError) -> Bool {
    var play: ((Int) throws(ReplayError) -> Bool)?
    if let player { play = { player.play($0) } }
    let (finished, elapsed) = try await drive(
      timeline.lines.count, time: { timeline.lines[$0].event.time },
      position: { index in
        guard case .action(let action) = timeline.lines[index].event.kind,
          action.source == .sent
        else { return nil }
        return timeline.positions[action.id]
      },
      isJump: { index in
        if case .jump = timeline.lines[index].event.kind { true } else { false }
      }, advance: advance, play: play,
      jump: { index throws(ReplayError) in
        guard case .jump(let recorded) = timeline.lines[index].event.kind else { return }
        try jump(recorded, timeline.lines[index].line)
      }, send: send)
    guard finished else { return false }
    await advance(timeline.endTime > elapsed ? timeline.endTime - elapsed : .zero)
    return true
  }
}
