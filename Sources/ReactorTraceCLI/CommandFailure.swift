import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Ends a command: prints one line to standard error and exits with a documented code.
enum CommandFailure {
  /// Exit code 2: the input or the output could not be used.
  static func unusableInput(_ message: String) -> ExitCode {
    printError(message)
    return ExitCode(2)
  }

  /// Exit code 3: `--strict` was given and a trace had warnings.
  static let strictWarningsCode: Int32 = 3

  /// Exit code 1: the trace diverged.
  static func divergence() -> ExitCode {
    ExitCode(1)
  }

  /// Writes `reactor-trace: message` and a newline to standard error.
  static func printError(_ message: String) {
    printLog(message)
  }

  /// Writes `reactor-trace: line` and a newline to standard error: a server's log line.
  static func printLog(_ message: String) {
    let line = Array("reactor-trace: \(message)\n".utf8)
    line.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }
}
