import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard error as the package's executables write it: one line per message, prefixed
/// `reactor-trace: `, safe for a terminal.
///
/// `reactor-trace`, `reactor-trace-serve` and `reactor-trace-mcp` all write their errors,
/// warnings and refusals through ``print(_:)``, so a path or label from a file or a request
/// (an escape sequence, a newline, a megabyte of text) reaches the terminal the same way from
/// each.
///
/// ```swift
/// StandardError.print("cannot open 'x.jsonl': no such file")
/// // reactor-trace: cannot open 'x.jsonl': no such file
/// ```
public enum StandardError {
  /// The most characters of a message ``print(_:)`` writes; the rest is cut, saying how long
  /// it was.
  public static let messageLimit = 2_000

  /// Writes `reactor-trace: message` and a newline to standard error, as one line: control
  /// characters in it shown as escapes by `TerminalText.line(_:)` and a message longer than
  /// ``messageLimit`` cut.
  public static func print(_ message: String) {
    let safe = TerminalText.line(TerminalText.cut(message, limit: messageLimit))
    let line = Array("reactor-trace: \(safe)\n".utf8)
    // Nothing to do when standard error is gone.
    _ = line.withUnsafeBytes { POSIXIO.write($0, to: STDERR_FILENO) }
  }
}
