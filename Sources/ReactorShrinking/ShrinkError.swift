/// Why a shrink could not start or go on.
public enum ShrinkError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A condition that does not read: the text and why.
  case malformedCondition(String, reason: String)
  /// No condition was given.
  case noCondition
  /// The input cannot be shrunk: its path and why (not a script, trace or session; a
  /// session that names no app; an action recorded without its value).
  case unusableInput(path: String, reason: String)
  /// The input itself does not run: the script's first run failed, saying why.
  case inputFailed(path: String, reason: String)
  /// The input's run never meets the condition, so there is nothing to shrink.
  case conditionNeverMet(path: String, condition: String)
  /// The runner could not run candidates any more (a worker process could not start).
  case runnerFailed(String)

  /// One line saying what failed.
  public var description: String {
    switch self {
    case .malformedCondition(let text, let reason): "malformed condition '\(text)': \(reason)"
    case .noCondition:
      "no condition: give --until-state PATH=VALUE, --until-invariant or --until-trap"
    case .unusableInput(let path, let reason): "\(path): \(reason)"
    case .inputFailed(let path, let reason): "\(path) does not run: \(reason)"
    case .conditionNeverMet(let path, let condition):
      "\(path) never meets the condition (\(condition)): nothing to shrink"
    case .runnerFailed(let reason): "cannot run candidates: \(reason)"
    }
  }
}
