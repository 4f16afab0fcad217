import ArgumentParser
import Foundation
import ReactorScript
import ReactorShrinking
import ReactorTestGeneration
import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `shrink` was asked to do.
struct ShrinkRequest: CommandRequest {
  /// The `reactor-trace` binary whose `shrink-worker` runs candidates (this process's, when
  /// it is one: ``ReactorTraceCommand/runFromCommandLine(registry:)`` sets it); `nil` runs
  /// them in this process, one at a time.
  @TaskLocal static var workerExecutable: String?

  var input: String
  var condition: ShrinkCondition
  /// The condition as a worker's arguments.
  var workerCondition: [String]
  var output: String
  var reactor: String?
  var metadata: [String: String]
  var settle: Int
  var test: String?
  var suiteName: String?
  var traits: [String] = []
  var imports: [String] = []
  var trace: String?
  var timeLimit: Double?
  var jobs: Int?
  var strategy: ShrinkOptions.Strategy = .fast
  var json = false

  /// Shrinks, writes what was asked, reports to `report`, and returns the exit code.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    let started = ContinuousClock.now
    try OutputFiles.refuse([output] + [test, trace].compactMap(\.self), ifAnyIs: [input])
    var script = try ShrinkInput.script(at: input)
    script.metadata.merge(metadata) { _, option in option }
    let registry = ReactorRegistry.current
    if let app = script.app {
      if let reactor {
        throw CommandFailure.unusableInput(
          "--reactor \(reactor) names one reactor, but \(input) is a run of the app \(app)")
      }
      _ = try registry.sessionEntry(app: app)
    } else {
      guard let name = reactor ?? script.reactor else {
        throw CommandFailure.unusableInput(
          "no reactor to run \(input) with: pass --reactor or name it in the script's first "
            + #"line, {"reactor": "ReactorExamples.CounterReactor"}"#)
      }
      guard let registered = registry.registeredName(matching: name) else {
        throw CommandFailure.unusableInput(registry.unknownReactorMessage(name))
      }
      script.reactor = registered
      if condition.states.contains(where: { $0.address != nil }) {
        throw CommandFailure.unusableInput(
          "--until-state with an address (ADDRESS:PATH=VALUE) is for an app's run; \(input) "
            + "is a run of \(registered): write PATH=VALUE")
      }
      if condition.brokenInvariant, registry.entry(named: registered)?.brokenInvariant == nil {
        throw CommandFailure.unusableInput(
          "--until-invariant: \(registered) is registered without invariants (or its State is "
            + "not Decodable, so recorded states cannot be checked)")
      }
    }
    if script.app != nil, condition.brokenInvariant,
      !registry.names.contains(where: { registry.entry(named: $0)?.brokenInvariant != nil })
    {
      throw CommandFailure.unusableInput(
        "--until-invariant: no registered reactor type has invariants a recorded state can be "
          + "checked against")
    }
    let runner = try self.runner()
    let shrinker = Shrinker(
      runner: runner,
      options: ShrinkOptions(
        strategy: strategy, timeLimit: timeLimit.map { .nanoseconds(Int64($0 * 1e9)) }))
    let progress = ShrinkProgressLine()
    let result: ShrinkResult
    do {
      result = try await shrinker.shrink(
        script, condition: condition.description, progress: { progress.show($0) })
    } catch {
      progress.finish()
      switch error {
      case .conditionNeverMet: throw CommandFailure(code: .divergence, message: error.description)
      default: throw CommandFailure.unusableInput(error.description)
      }
    }
    progress.finish()
    try OutputFiles.write(Array(result.script.text.utf8), to: output, inputs: [input])
    var recorded: SessionTrace?
    if trace != nil || (test != nil && condition.brokenInvariant) {
      recorded = try await ShrinkCandidate.record(
        result.script, settle: .milliseconds(settle), willRun: nil)
    }
    if let trace, let recorded {
      let bytes =
        result.script.app == nil
        ? (recorded.lane(of: 1)?.serialized ?? recorded.serialized) : recorded.serialized
      try OutputFiles.write(bytes, to: trace, inputs: [input])
    }
    if let test { try writeTest(result, recorded: recorded, to: test) }
    let seconds = Double((ContinuousClock.now - started) / .milliseconds(1)) / 1000
    if json {
      report.write(jsonReport(result, seconds: seconds).serializedString)
    } else if output != OutputFiles.standardOutput {
      report.write(textReport(result, seconds: seconds))
    }
    return result.stoppedByTimeLimit ? .timeLimit : .success
  }

  /// Worker processes when this is a `reactor-trace` binary and more than one run at a time
  /// (or a trap to contain) is asked for; else this process, one run at a time.
  @MainActor
  private func runner() throws(CommandFailure) -> any ShrinkRunner {
    let count = jobs ?? ProcessInfo.processInfo.activeProcessorCount
    if let executable = Self.workerExecutable, count > 1 || condition.trap {
      return ShrinkWorkerPool(
        count: count, executable: executable,
        arguments: ["shrink-worker", "--settle", String(settle)] + workerCondition)
    }
    guard !condition.trap else {
      throw .unusableInput(
        "--until-trap runs candidates in worker processes, which only a reactor-trace binary "
          + "can start")
    }
    let condition = condition
    let settle = Duration.milliseconds(settle)
    let registry = ReactorRegistry.current
    return SerialShrinkRunner { script in
      await ReactorRegistry.$current.withValue(registry) {
        await ShrinkCandidate.run(script, condition: condition, settle: settle)
      }
    }
  }

  /// Writes the test that expects the condition not to happen after the shrunk script.
  @MainActor
  private func writeTest(
    _ result: ShrinkResult, recorded: SessionTrace?, to path: String
  ) throws {
    let subject: TestSubject =
      if let app = result.script.app { .app(app) } else { .reactor(result.script.reactor ?? "") }
    guard
      let factory = ReactorRegistry.current.testFactory(
        for: subject, metadata: result.script.metadata)
    else {
      throw CommandFailure.unusableInput(
        "--test: \(result.script.app ?? result.script.reactor ?? "the reactor") is registered "
          + "without a test factory (registered 'test:' spelling), so no test can build it")
    }
    var expected = condition
    if condition.brokenInvariant {
      let registry = ReactorRegistry.current
      guard let recorded,
        let spelled = condition.spellingInvariantAsState(
          in: recorded,
          brokenInvariant: { type, state in
            registry.entry(named: type)?.brokenInvariant?(state)
          })
      else {
        throw CommandFailure.unusableInput(
          "--test: the shrunk run's broken invariant could not be found again in its recording")
      }
      expected = spelled
    }
    let name = try suiteName ?? Self.suiteName(for: input)
    let source = ShrinkTestWriter(suiteName: name, traits: traits, imports: imports).source(
      of: result.script, condition: expected, factory: factory,
      input: (input as NSString).lastPathComponent, inputSteps: result.inputSteps)
    try OutputFiles.write(Array(source.utf8), to: path, inputs: [input])
  }

  /// `SessionShrunkTests` for `long.session.jsonl`: the file's name before its first dot, in
  /// words, capitalized, then `ShrunkTests`.
  private static func suiteName(for input: String) throws(CommandFailure) -> String {
    let file = (input as NSString).lastPathComponent
    let stem = file.split(separator: ".").first.map(String.init) ?? "Run"
    let words = stem.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
      .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    let name = words + "ShrunkTests"
    return name.first?.isLetter == true ? name : "Run" + name
  }

  private func textReport(_ result: ShrinkResult, seconds: Double) -> String {
    var lines = [
      "wrote \(output): \(result.script.steps.count) of \(result.inputSteps) steps "
        + (result.isOneMinimal
          ? "(1-minimal: dropping any one no longer meets the condition)"
          : "(stopped at --time-limit: maybe not minimal)")
        + ", \(result.runs) runs"
        + (result.reusedRuns > 0 ? " (\(result.reusedRuns) more known from earlier runs)" : "")
        + String(format: " in %.1f s", seconds)
    ]
    if let detail = result.detail { lines.append("met: \(detail)") }
    if let test { lines.append("wrote \(test)") }
    if let trace { lines.append("wrote \(trace)") }
    return lines.joined(separator: "\n")
  }

  private func jsonReport(_ result: ShrinkResult, seconds: Double) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("input", .string(input)), ("output", .string(output)),
      ("condition", .string(condition.description)),
      ("inputSteps", .int(Int64(result.inputSteps))),
      ("steps", .int(Int64(result.script.steps.count))),
      ("oneMinimal", .bool(result.isOneMinimal)),
      ("stoppedByTimeLimit", .bool(result.stoppedByTimeLimit)),
      ("runs", .int(Int64(result.runs))), ("reusedRuns", .int(Int64(result.reusedRuns))),
      ("seconds", .double(seconds)),
      ("script", .array(result.script.lines.map { .string($0) })),
    ]
    if let detail = result.detail { members.append(("detail", .string(detail))) }
    if let test { members.append(("test", .string(test))) }
    if let trace { members.append(("trace", .string(trace))) }
    return .object(JSONObject(members))
  }
}

/// The progress line of `shrink` on standard error: rewritten in place on a terminal, a line
/// per smaller script otherwise.
final class ShrinkProgressLine: Sendable {
  private let isTerminal = isatty(STDERR_FILENO) == 1

  /// Shows where the search is.
  func show(_ progress: ShrinkProgress) {
    let text =
      "shrink: \(progress.steps) of \(progress.inputSteps) steps, \(progress.runs) runs, "
      + progress.phase.rawValue
    if isTerminal {
      emit("\r\u{1B}[K" + text)
    } else {
      emit(text + "\n")
    }
  }

  /// Ends the line on a terminal.
  func finish() {
    if isTerminal { emit("\n") }
  }

  private func emit(_ text: String) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }
}
