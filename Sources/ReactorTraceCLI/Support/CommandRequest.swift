import ArgumentParser

/// What a subcommand was asked to do, separate from argument parsing so that it can run
/// against any output: every subcommand's `run()` builds one and calls ``exit()``.
protocol CommandRequest: Sendable {
  /// Does the work, writing the report to `output`, and returns the exit code.
  ///
  /// - Throws: ``CommandFailure``, or any error whose text is the line for standard error
  ///   (exit code 2).
  @MainActor func run(output: any TextOutput) async throws -> ExitCode
}

extension CommandRequest {
  /// Runs the request and returns its exit code: the one place where a failure becomes a
  /// line on standard error.
  ///
  /// Warnings wait for the outcome (``DeferredWarnings``): a run that ends with unusable
  /// input (exit code 2) prints its error line alone.
  @MainActor func execute(output: any TextOutput) async -> Int32 {
    let warnings = DeferredWarnings()
    let flushing = WarningFlushingOutput(base: output, warnings: warnings)
    return await DeferredWarnings.$current.withValue(warnings) {
      do {
        let code = try await run(output: flushing).rawValue
        warnings.flush()
        return code
      } catch {
        let failure = CommandFailure(error)
        if failure.code == .unusableInput { warnings.discard() } else { warnings.flush() }
        failure.report()
        return failure.code.rawValue
      }
    }
  }

  /// Runs the request against standard output and ends the command with its code.
  func exit() async throws {
    let code = await execute(output: StandardOutput())
    if code != 0 { throw ExitCode(code) }
  }
}
