import ArgumentParser

/// The exit codes `reactor-trace` documents, by name (``ReactorTraceCommand`` lists them).
extension ExitCode {
  /// 1: a replay or diff found a divergence, an invariant is broken, or `--path-to` found no
  /// state.
  static let divergence = ExitCode(1)
  /// 2: the input or the output could not be used; one line on standard error says why.
  static let unusableInput = ExitCode(2)
  /// 3: `--strict` was given and a trace had warnings.
  static let strictWarnings = ExitCode(3)
  /// 4: coverage is below `--min`.
  static let belowMinimum = ExitCode(4)
}

extension ExitCode {
  /// 5: `shrink` stopped at `--time-limit`; the script written is the best found, maybe not
  /// 1-minimal.
  static let timeLimit = ExitCode(5)
}
