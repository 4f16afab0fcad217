import ArgumentParser
import ReactorCommandLine
import ReactorTracing

/// Why a command stopped: its exit code and the line it prints on standard error.
///
/// Commands throw it, or let their libraries' errors propagate; ``CommandRequest/execute(output:)``
/// is the one place that turns either into a line on standard error and an exit code.
struct CommandFailure: Error, Sendable {
  /// The exit code.
  var code: ExitCode
  /// The line for standard error, or `nil` when the command already said why.
  var message: String?

  /// Exit code 2 with `message`: the input or the output could not be used.
  static func unusableInput(_ message: String) -> CommandFailure {
    CommandFailure(code: .unusableInput, message: message)
  }

  /// Exit code 3: the warnings were printed as errors under `--strict`.
  static let strictWarnings = CommandFailure(code: .strictWarnings, message: nil)

  /// The failure for any error: itself if it is one, else exit code 2 with the error's text.
  init(_ error: any Error) {
    if let failure = error as? CommandFailure {
      self = failure
    } else {
      self.init(code: .unusableInput, message: "\(error)")
    }
  }

  /// A failure with its code and line.
  init(code: ExitCode, message: String?) {
    self.code = code
    self.message = message
  }

  /// Writes ``message`` (if any) on one line to standard error.
  func report() {
    guard let message else { return }
    // One line, even for a report that lists several schema changes.
    let lines = message.split(separator: "\n").map { $0.drop(while: { $0 == " " }) }
    StandardError.print(lines.joined(separator: lines.count > 2 ? "; " : " "))
  }

  /// Writes a warning (or a note) as `StandardError.print(_:)` does, once the run's outcome is
  /// known when a command runs (``DeferredWarnings``): not at all when it ends with exit code 2.
  static func printWarning(_ message: String) {
    if let warnings = DeferredWarnings.current {
      warnings.append(message)
    } else {
      StandardError.print(message)
    }
  }
}
