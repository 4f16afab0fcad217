import ArgumentParser
import ReactorScript
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace record`: drives a registered reactor with a script and records its trace.
  struct Record: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Record a registered reactor driven by a script of timed actions.",
      discussion: """
        The script is JSON Lines. An optional first line names the reactor and the header \
        metadata: {"reactor": "ReactorExamples.CounterReactor", "meta": {"limit": "2"}}. \
        Each further line is a step at t milliseconds from the start: {"t": 500, "action": \
        "increase"} sends an action; {"t": 900, "event": {...}} hands an event to the \
        reactor's fakes (for reactors registered with an event type). Steps run at their \
        times on a virtual clock, and the recording ends when no effect is waiting any more \
        (or --settle has passed), so the same script gives a byte-identical trace. An action \
        with an unnamed associated value is written with its position: {"updateEmail": \
        {"_0": "ada@example.com"}}. \
        An app's script records a whole app as one session (format 2.0), through the app's \
        registered session factory: its first line names the app, {"app": "TaskApp"}, and \
        each step says which reactor its action goes to: {"t": 0, "to": "list", "action": \
        "refresh"} (a name the factory gave), {"t": 200, "to": "list/cells.0", "action": \
        "toggle"} (the reactor list's state holds at cells.0), {"to": \
        "list/cells[task.id=1]", ...} (the one of list's cells whose state has task.id 1). \
        Exit codes: 0 written, 2 unusable script or output (also a step of an app's script \
        that reaches no live reactor: one line names the step, nothing is written), 3 effects \
        still running after --settle under --strict (nothing is written).
        """
    )

    /// The reactor type to record.
    @Option(
      help:
        "The registered reactor type, e.g. ReactorExamples.CounterReactor (default: the script's).")
    var reactor: String?

    /// The script.
    @Option(help: "The script of timed actions (JSON Lines).")
    var actions: String

    /// Where the trace goes.
    @Option(name: .shortAndLong, help: "The trace file to write.")
    var output: String

    /// Metadata for the header, also handed to the reactor's factory.
    @Option(
      name: .customLong("meta"),
      help: "Header metadata as key=value (repeatable; overrides the script's).")
    var metadata: [String] = []

    /// How long effects may run after the last step.
    @Option(
      help: "The most virtual milliseconds to wait after the last step for effects to finish.")
    var settle = 10_000

    /// Whether a recording with effects still running is a failure.
    @OptionGroup var strictness: StrictOption

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Checks the arguments before anything is read.
    func validate() throws {
      for pair in metadata where !pair.contains("=") {
        throw ValidationError("--meta takes key=value, not '\(pair)'.")
      }
      guard settle >= 0 else { throw ValidationError("--settle must not be negative.") }
    }

    /// Records and writes the trace.
    func run() async throws {
      try await RecordRequest(
        reactor: reactor, actions: actions, output: output,
        metadata: Dictionary(
          metadata.map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
          }, uniquingKeysWith: { _, last in last }),
        settle: .milliseconds(settle), strict: strictness.strict
      ).exit()
    }
  }
}

/// What `record` was asked to do.
struct RecordRequest: CommandRequest {
  var reactor: String?
  var actions: String
  var output: String
  var metadata: [String: String]
  var settle: Duration
  var strict = false

  /// Records, writes the trace, reports to `output`, and returns the exit code.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    let registry = ReactorRegistry.current
    try OutputFiles.refuse([output], ifAnyIs: [actions])
    let script = try ReactorScript(path: actions)
    if let app = script.app {
      return try await recordSession(of: app, script: script, report: report)
    }
    guard let name = reactor ?? script.reactor else {
      throw CommandFailure.unusableInput(
        "no reactor to record: pass --reactor or name it in the script's first line, "
          + #"{"reactor": "ReactorExamples.CounterReactor"}"#)
    }
    guard let entry = registry.entry(named: name) else {
      throw CommandFailure.unusableInput(registry.unknownReactorMessage(name))
    }
    let metadata = script.metadata.merging(self.metadata) { _, option in option }
    let (trace, screen) = try await entry.record(script, metadata, settle, nil)
    // The check a reader makes: effects still running when --settle ran out.
    let reader = try TraceReader(bytes: trace.serialized, name: output)
    while try reader.next() != nil {}
    let warnings = TraceWarningReport(
      path: output, warnings: reader.warnings, eventCount: reader.eventCount)
    try TraceWarningReport.print([warnings], failingIfStrict: strict)
    try OutputFiles.write(trace.serialized, to: output, inputs: [actions])
    if output == OutputFiles.standardOutput { return .success }
    let events = script.steps.count - script.actionCount
    report.write(
      "wrote \(output): \(trace.events.count) events from \(script.actionCount) "
        + (script.actionCount == 1 ? "action" : "actions")
        + (events > 0 ? " and \(events) scripted event\(events == 1 ? "" : "s")" : ""))
    if let screen { report.write("screen: \(screen)") }
    return .success
  }

  /// Records an app's script as a session through the app's registered session factory.
  @MainActor
  private func recordSession(
    of app: String, script: ReactorScript, report: any TextOutput
  ) async throws -> ExitCode {
    if let reactor {
      throw CommandFailure.unusableInput(
        "--reactor \(reactor) records one reactor, but \(actions) is the script of the app "
          + "\(app) (its reactors are the ones its session factory builds)")
    }
    let entry = try ReactorRegistry.current.sessionEntry(app: app)
    let metadata = script.metadata.merging(self.metadata) { _, option in option }
    let (session, noticed) = try await entry.record(script, metadata, settle, nil)
    let bytes = session.serialized
    // The check a reader makes: effects still running when --settle ran out.
    let reader = try SessionReader(bytes: bytes, name: output)
    while try reader.next() != nil {}
    try TraceWarningReport.print(
      [TraceWarningReport(path: output, warnings: reader.warnings, eventCount: reader.eventCount)],
      failingIfStrict: strict)
    for warning in noticed { CommandFailure.printWarning("warning: \(warning)") }
    try OutputFiles.write(bytes, to: output, inputs: [actions])
    if output == OutputFiles.standardOutput { return .success }
    report.write(
      "wrote \(output): a session, \(session.events.count) events of "
        + "\(session.reactors.count) reactors, from \(script.actionCount) "
        + (script.actionCount == 1 ? "action" : "actions") + " to the app \(app)")
    return .success
  }
}
