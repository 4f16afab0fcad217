/// What a ``ScriptRunner`` recording is about to run, for a caller that reports where the
/// reactor's code was when it trapped.
///
/// A trap cannot be caught, so a tool describes the work before it starts: the runner hands
/// a stage to its `willRun` hook before each step and once more before the effects still
/// running after the last step.
public enum ScriptStage: Sendable, Equatable {
  /// Step `number` (from 1) of `count`, due at `time`: the action or event whose value
  /// reads `text` (`String(describing:)`).
  case step(number: Int, count: Int, time: Duration, isAction: Bool, text: String)
  /// After the last step: the clock runs on while effects settle.
  case settling
}
