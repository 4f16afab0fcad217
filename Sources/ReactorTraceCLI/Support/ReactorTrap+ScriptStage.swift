import ReactorScript

extension ReactorTrap {
  /// Describes what a script recording (`record`, `rerecord`) runs next: a step, with what the
  /// steps before it started, or the effects still running after the last one.
  static func running(_ stage: ScriptStage) {
    switch stage {
    case .step(let number, let count, let time, let isAction, let text):
      running(
        "the reactor trapped (Swift's message is on standard error) at step \(number) of \(count) "
          + "of the script, t=\(milliseconds(time)) ms: "
          + (isAction ? "the action " : "the event ")
          + (text.count > 200 ? String(text.prefix(199)) + "…" : text)
          + (number == 1 ? "" : ", or in what the steps before it started"),
        exitCode: exitCode)
    case .settling:
      running(
        "the reactor trapped (Swift's message is on standard error) after the last step of the "
          + "script, in the effects still running",
        exitCode: exitCode)
    }
  }

  /// `duration` in whole or fractional milliseconds.
  private static func milliseconds(_ duration: Duration) -> String {
    let milliseconds = duration / .milliseconds(1)
    return milliseconds == milliseconds.rounded() ? String(Int64(milliseconds)) : "\(milliseconds)"
  }
}
