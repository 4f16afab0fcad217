import ReactorTracing

/// A ``RecordedEffectPlayer`` of any reactor type: what a session's playback holds for each
/// reactor.
@MainActor
protocol RecordedLanePlayer: AnyObject {
  /// The lane it plays.
  var timeline: RecordedTimeline { get }
  /// Plays the lane's line at `index`; see ``RecordedEffectPlayer/play(_:)``.
  func play(_ index: Int) -> Bool
  /// The effects played back.
  func playedEffects(reactor: Int?) -> [PlayedEffect]
  /// Ends every body still waiting.
  func finish()
  /// The first recorded mutation that did not decode as it was delivered.
  var error: ReplayError? { get }
}

extension RecordedEffectPlayer: RecordedLanePlayer {}
