public import ArgumentParser

/// `--strict`: shared by every command that reads traces.
public struct StrictOption: ParsableArguments {
  /// Whether a trace warning fails the command.
  @Flag(
    help: """
      Fail with exit code 3 when a trace has warnings: a torn last line, no end line, \
      effects still running when the recording stopped.
      """)
  public var strict = false

  /// Creates the option; ArgumentParser fills it in.
  public init() {}
}
