public import ArgumentParser
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace record`: drives a registered reactor with a script and records its trace.
  public struct Record: AsyncParsableCommand {
    /// The command's help.
    public static let configuration = CommandConfiguration(
      abstract: "Record a registered reactor driven by a script of timed actions.",
      discussion: """
        The script is JSON Lines, one step per line: {"t": 500, "action": {"increase": {}}}, \
        with t in milliseconds from the start. Actions are sent at their times on a virtual \
        clock, so the same script gives a byte-identical trace.
        """
    )

    /// The reactor type to record.
    @Option(help: "The registered reactor type, e.g. ReactorExamples.CounterReactor.")
    public var reactor: String

    /// The script.
    @Option(help: "The script of timed actions (JSON Lines).")
    public var actions: String

    /// Where the trace goes.
    @Option(name: .shortAndLong, help: "The trace file to write.")
    public var output: String

    /// Metadata for the header, also handed to the reactor's factory.
    @Option(name: .customLong("meta"), help: "Header metadata as key=value (repeatable).")
    public var metadata: [String] = []

    /// How long effects may run after the last action.
    @Option(help: "Milliseconds of virtual time after the last action for effects to finish.")
    public var settle = 10_000

    /// Creates the command; ArgumentParser fills in the options.
    public init() {}

    /// Checks the arguments before anything is read.
    public func validate() throws {
      for pair in metadata where !pair.contains("=") {
        throw ValidationError("--meta takes key=value, not '\(pair)'.")
      }
      guard settle >= 0 else { throw ValidationError("--settle must not be negative.") }
    }

    /// Records and writes the trace.
    public func run() async throws {
      let request = RecordRequest(
        reactor: reactor, actions: actions, output: output,
        metadata: Dictionary(
          metadata.map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
          }, uniquingKeysWith: { _, last in last }),
        settle: .milliseconds(settle))
      let code = await request.execute()
      if code != 0 { throw ExitCode(code) }
    }
  }
}

/// What `record` was asked to do.
struct RecordRequest: Sendable {
  var reactor: String
  var actions: String
  var output: String
  var metadata: [String: String]
  var settle: Duration

  /// Records and returns the exit code.
  @MainActor
  func execute() async -> Int32 {
    let registry = ReactorRegistry.current
    guard let entry = registry.entry(named: reactor) else {
      CommandFailure.printError(
        "unknown reactor '\(reactor)'; registered: "
          + (registry.names.isEmpty ? "none" : registry.names.joined(separator: ", ")))
      return 2
    }
    do {
      let script = try ActionScript(path: actions)
      let trace = try await entry.record(script, metadata, settle)
      do {
        try trace.write(to: output)
      } catch {
        CommandFailure.printError(error.description)
        return 2
      }
      print("wrote \(output): \(trace.events.count) events from \(script.steps.count) actions")
      return 0
    } catch {
      CommandFailure.printError(error.description)
      return 2
    }
  }
}
