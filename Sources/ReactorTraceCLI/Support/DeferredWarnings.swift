import ReactorCommandLine
import Synchronization

/// The warning lines of one command run, held back until its outcome is known: a run that
/// ends with unusable input (exit code 2) prints only its one error line, and any other run
/// prints them before its first line of output (or at its end).
///
/// ``CommandRequest/execute(output:)`` installs one for the run (``current``);
/// ``CommandFailure/printWarning(_:)`` adds to it, or prints at once outside a run.
final class DeferredWarnings: Sendable {
  /// The run's warnings, while a command runs.
  @TaskLocal static var current: DeferredWarnings?

  private let lines = Mutex<[String]>([])

  /// Holds `line` back.
  func append(_ line: String) {
    lines.withLock { $0.append(line) }
  }

  /// Prints the lines held back, and holds no more.
  func flush() {
    let held = lines.withLock { lines in
      let held = lines
      lines = []
      return held
    }
    for line in held { StandardError.print(line) }
  }

  /// Forgets the lines held back: the run's error line says what matters.
  func discard() {
    lines.withLock { $0 = [] }
  }
}

/// An output that prints the run's held-back warnings before its first line.
struct WarningFlushingOutput: TextOutput {
  let base: any TextOutput
  let warnings: DeferredWarnings

  func write(_ line: String) {
    warnings.flush()
    base.write(line)
  }
}
