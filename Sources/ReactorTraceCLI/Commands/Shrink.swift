import ArgumentParser
import Foundation
import ReactorScript
import ReactorShrinking
import ReactorTestGeneration
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace shrink`: the shortest script that still makes something happen.
  struct Shrink: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Shrink a run that makes something happen to the shortest script that still does.",
      discussion: """
        INPUT is a reactor's or an app's script, a trace or a session (a recording becomes \
        its script first: the user's actions at their times, for a session each to the \
        address of the reactor it reached). Each candidate is recorded as record records \
        it, through the registered factory, on a virtual clock, and kept when the condition \
        still holds at some point of its run: --until-state (all parts at once), \
        --until-invariant, or --until-trap (the reactor's code traps; contained in a worker \
        process). The result is 1-minimal (dropping any one step no longer meets the \
        condition) and the same for the same input; steps keep their times unless moving \
        them earlier keeps the condition, then payloads are simplified. Progress goes to \
        standard error. Exit codes: 0 written, 1-minimal; 1 the input never meets the \
        condition; 2 unusable input or output; 5 stopped at --time-limit (the best script \
        so far is written, maybe not 1-minimal).
        """
    )

    /// The run to shrink.
    @Argument(help: "A script (reactor's or app's), a trace or a session.")
    var input: String

    /// The condition.
    @OptionGroup var condition: ShrinkConditionOptions

    /// Where the shrunk script goes.
    @Option(name: .shortAndLong, help: "The script to write, as record --actions takes it.")
    var output: String

    /// The reactor type, for a script that does not name it.
    @Option(help: "The registered reactor type (default: the input's).")
    var reactor: String?

    /// Metadata for the header, also handed to the factory.
    @Option(
      name: .customLong("meta"),
      help: "Header metadata as key=value (repeatable; overrides the input's).")
    var metadata: [String] = []

    /// How long effects may run after the last step.
    @Option(help: "The most virtual milliseconds to wait after the last step of each run.")
    var settle = 10_000

    /// Where the test goes.
    @Option(help: "Also write a Swift Testing test expecting the condition not to happen.")
    var test: String?

    /// The test suite's name.
    @Option(help: "With --test: the suite's name (default: from the input's name).")
    var suiteName: String?

    /// Traits for the test.
    @Option(name: .customLong("trait"), help: "With --test: a Swift Testing trait (repeatable).")
    var traits: [String] = []

    /// Modules the test imports.
    @Option(name: .customLong("import"), help: "With --test: a module to import (repeatable).")
    var imports: [String] = []

    /// Where the shrunk run's recording goes.
    @Option(help: "Also write the shrunk run's trace (a session for an app).")
    var trace: String?

    /// The time limit.
    @Option(
      help: "Stop after this many seconds with the best script so far (exit 5, maybe not minimal)."
    )
    var timeLimit: Double?

    /// How many candidates run at once.
    @Option(help: "Candidates run at once, each in a worker process (default: the cores).")
    var jobs: Int?

    /// The search.
    @Option(
      help: "fast (default), or ddmin: plain delta debugging without cuts or passes, to compare."
    )
    var strategy = "fast"

    /// Whether to print JSON.
    @Flag(help: "Print the result as JSON.")
    var json = false

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Checks the arguments before anything is read.
    func validate() throws {
      for pair in metadata where !pair.contains("=") {
        throw ValidationError("--meta takes key=value, not '\(pair)'.")
      }
      guard settle >= 0 else { throw ValidationError("--settle must not be negative.") }
      if let timeLimit, !(timeLimit > 0 && timeLimit.isFinite) {
        throw ValidationError("--time-limit must be a positive number of seconds.")
      }
      if let jobs, !(1...256).contains(jobs) {
        throw ValidationError("--jobs must be from 1 to 256.")
      }
      guard ["fast", "ddmin"].contains(strategy) else {
        throw ValidationError("--strategy is fast or ddmin.")
      }
      if let suiteName,
        suiteName.isEmpty
          || !suiteName.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
          || suiteName.first?.isNumber == true
      {
        throw ValidationError("--suite-name must be a Swift identifier.")
      }
      if condition.trap, trace != nil {
        throw ValidationError("--trace records the shrunk run, which --until-trap ends in a trap.")
      }
    }

    /// Shrinks and writes.
    func run() async throws {
      let parsed: ShrinkCondition
      do {
        parsed = try condition.condition()
      } catch {
        CommandFailure.unusableInput(error.description).report()
        throw ExitCode.unusableInput
      }
      try await ShrinkRequest(
        input: input, condition: parsed, workerCondition: condition.arguments,
        output: output, reactor: reactor,
        metadata: Dictionary(
          metadata.map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
          }, uniquingKeysWith: { _, last in last }),
        settle: settle, test: test, suiteName: suiteName, traits: traits, imports: imports,
        trace: trace, timeLimit: timeLimit, jobs: jobs,
        strategy: strategy == "ddmin" ? .plainDeltaDebugging : .fast, json: json
      ).exit()
    }
  }
}
