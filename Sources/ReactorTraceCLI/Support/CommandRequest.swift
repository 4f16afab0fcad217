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
  @MainActor func execute(output: any TextOutput) async -> Int32 {
    do {
      return try await run(output: output).rawValue
    } catch {
      let failure = CommandFailure(error)
      failure.report()
      return failure.code.rawValue
    }
  }

  /// Runs the request against standard output and ends the command with its code.
  func exit() async throws {
    let code = await execute(output: StandardOutput())
    if code != 0 { throw ExitCode(code) }
  }
}
