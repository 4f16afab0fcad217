import ArgumentParser

/// `--strict`: shared by every command that reads traces.
struct StrictOption: ParsableArguments, Sendable {
  /// Whether a trace warning fails the command.
  @Flag(
    help: """
      Fail with exit code 3 when a trace has warnings: a torn last line, no end line, \
      effects still running when the recording stopped.
      """)
  var strict = false

  /// Creates the option; ArgumentParser fills it in.
  init() {}
}
