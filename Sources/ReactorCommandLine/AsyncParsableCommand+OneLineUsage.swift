public import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension AsyncParsableCommand {
  /// Parses the arguments and runs the command, as `reactor-trace-serve` and
  /// `reactor-trace-mcp` start: `--help` prints the help; a usage error is one line on standard
  /// error, `… (see COMMAND --help)` (``StandardError/print(_:)``), and exit code 64; an error
  /// `run()` throws ends the process as ArgumentParser's `exit(withError:)` does.
  ///
  /// ```swift
  /// @main struct ServeCommand: AsyncParsableCommand {
  ///   static func main() async { await mainWithOneLineUsageErrors() }
  /// }
  /// ```
  public static func mainWithOneLineUsageErrors() async {
    let command: Self
    do {
      command = try parse()
    } catch {
      let code = exitCode(for: error)
      guard code != .success else {
        Swift.print(fullMessage(for: error))
        terminate(0)
      }
      let firstLine = message(for: error).split(separator: "\n").first ?? ""
      let name = configuration.commandName ?? String(describing: Self.self)
      StandardError.print(String(firstLine) + " (see \(name) --help)")
      terminate(code.rawValue)
    }
    do {
      var command = command
      try await command.run()
    } catch {
      exit(withError: error)
    }
  }
}

/// Ends the process with `code` (the C library's `exit`, which `ParsableCommand.exit` hides
/// inside the extension).
private func terminate(_ code: Int32) -> Never {
  exit(code)
}
