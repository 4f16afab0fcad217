import ArgumentParser
import Foundation
import ReactorReplay
import ReactorScript
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace rerecord`: records a trace again through today's reactor.
  struct Rerecord: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Record a trace again through today's reactor and show what changed.",
      discussion: """
        Re-sends the trace's recorded actions, at their recorded times, and hands its scripted \
        events to the reactor's fakes again, on a test clock, through the registered reactor \
        (the trace's, or --reactor). Writes the new trace atomically to -o, or over the trace \
        with --in-place, then prints the first difference and how many events were added, \
        removed and changed. A session is recorded again through the session factory \
        registered for its app, its user actions re-sent at their times. Exit codes: 0 written, 2 unusable input or output.
        """
    )

    /// The trace to record again.
    @Argument(help: "The trace file.")
    var trace: String

    /// Where the new trace goes.
    @Option(name: .shortAndLong, help: "The new trace file.")
    var output: String?

    /// Whether to replace the trace.
    @Flag(help: "Replace the trace with the new recording.")
    var inPlace = false

    /// The registered reactor to record with, instead of the trace's own.
    @Option(help: "Record with this registered reactor type instead of the trace's.")
    var reactor: String?

    /// How long effects may run after the last step.
    @Option(
      help: "The most virtual milliseconds to wait after the last step for effects to finish.")
    var settle = 10_000

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Checks the arguments before anything is read.
    func validate() throws {
      switch (output, inPlace) {
      case (nil, false):
        throw ValidationError("Give -o OUTPUT, or --in-place to replace the trace.")
      case (_?, true): throw ValidationError("Give -o OUTPUT or --in-place, not both.")
      case (_?, false), (nil, true): break
      }
      guard settle >= 0 else { throw ValidationError("--settle must not be negative.") }
    }

    /// Records and writes the new trace.
    func run() async throws {
      try await RerecordRequest(
        trace: trace, output: output ?? trace, isInPlace: inPlace, reactor: reactor,
        settle: .milliseconds(settle)
      ).exit()
    }
  }
}

/// What `rerecord` was asked to do.
struct RerecordRequest: CommandRequest {
  var trace: String
  /// The new trace's path: `-` for standard output, the trace itself with `--in-place`.
  var output: String
  /// Whether `output` is the trace, to be replaced.
  var isInPlace = false
  var reactor: String?
  var settle: Duration

  /// Records the trace again, writes it, reports to `output`, and returns the exit code.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    let registry = ReactorRegistry.current
    // What the input names records it again: an app, through its session factory; else its
    // reactor, from the actions it recorded.
    if reactor == nil,
      try SessionReader(path: trace, verifyingStates: false).header
        .metadata["app"] != nil
    {
      return try await rerecordSession(report: report)
    }
    let old = try Self.load(trace)
    let script = try ReactorScript(trace: trace)
    let name = reactor ?? script.reactor ?? old.header.reactor
    guard let entry = registry.entry(named: name) else {
      throw CommandFailure.unusableInput(registry.unknownReactorMessage(name))
    }
    if !isInPlace { try OutputFiles.refuse([output], ifAnyIs: [trace]) }
    let (new, _) = try await entry.record(script, script.metadata, settle, nil)
    // Everything is checked before anything is replaced: with --in-place, the trace.
    if let late = new.events.first(where: { TraceTime.nanoseconds($0.time) == nil }) {
      throw CommandFailure.unusableInput(
        "the new recording of \(trace) runs past the latest time a trace holds "
          + "(\(Int64.max) ns) at event \(late.sequence); nothing was written")
    }
    let bytes = new.serialized
    do {
      let check = try TraceReader(bytes: bytes, name: output)
      while try check.next() != nil {}
    } catch {
      throw CommandFailure.unusableInput(
        "the new recording of \(trace) does not read back as a trace (\(error)); "
          + "nothing was written")
    }
    let changes = try TraceChanges(from: old, to: new)
    try OutputFiles.write(bytes, to: output, inputs: isInPlace ? [] : [trace])
    SignalCleanup.outputIsComplete()
    if output == OutputFiles.standardOutput { return .success }
    report.write(
      "wrote \(output): \(new.events.count) events from \(script.actionCount) "
        + (script.actionCount == 1 ? "action" : "actions") + " re-sent to \(name)")
    report.write(changes.description)
    return .success
  }

  /// Records a session again through its app's registered session factory: the user's
  /// actions re-sent at their times, everything else made again by today's code.
  @MainActor
  private func rerecordSession(report: any TextOutput) async throws -> ExitCode {
    let old = try SessionTrace(contentsOf: trace)
    TraceWarningReport(path: trace, warnings: old.warnings, eventCount: old.events.count)
      .print(strict: false)
    let (app, entry) = try ReactorRegistry.current.sessionEntry(for: old.header)
    if !isInPlace { try OutputFiles.refuse([output], ifAnyIs: [trace]) }
    let result = try await entry.mutate(old, .run, settle)
    let bytes = result.replayed.serialized
    do {
      let check = try SessionReader(bytes: bytes, name: output)
      while try check.next() != nil {}
    } catch {
      throw CommandFailure.unusableInput(
        "the new recording of \(trace) does not read back as a session (\(error)); "
          + "nothing was written")
    }
    for warning in result.warnings { CommandFailure.printWarning("warning: \(warning)") }
    try OutputFiles.write(bytes, to: output, inputs: isInPlace ? [] : [trace])
    SignalCleanup.outputIsComplete()
    if output == OutputFiles.standardOutput { return .success }
    report.write(
      "wrote \(output): \(result.replayed.events.count) events of "
        + "\(result.replayed.reactors.count) reactors from \(result.userActions) user "
        + (result.userActions == 1 ? "action" : "actions")
        + " re-sent through the '\(app)' session factory")
    report.write(
      result.divergence.map { "first difference: \($0)" }
        ?? "no change: every event is the recorded one")
    return .success
  }

  /// The whole trace at `path`, with its warnings printed.
  private static func load(_ path: String) throws(TraceReadError) -> Trace {
    let reader = try TraceReader(path: path)
    var events: [TraceEvent] = []
    while let event = try reader.next() { events.append(event) }
    TraceWarningReport(path: path, warnings: reader.warnings, eventCount: reader.eventCount)
      .print(strict: false)
    return Trace(header: reader.header, events: events)
  }
}
