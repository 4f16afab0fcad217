import ArgumentParser
import Foundation
import ReactorDiagrams
import ReactorExploration
import ReactorTracing

/// Runs an exploration for a command and records scripts it found.
@MainActor
enum ExplorationRun {
  /// Reads the inputs, looks the reactor up and explores it.
  static func explore(
    reactor: String?, arguments: ExplorationArguments, extraTraces: [String] = []
  ) async throws -> (Exploration, metadata: [String: String]) {
    let inputs = try ExplorationInputs(arguments, recordings: extraTraces)
    guard let reactor = reactor ?? inputs.reactor else {
      throw CommandFailure.unusableInput("no reactor to explore: pass --reactor")
    }
    return (try await explore(reactor, in: inputs, arguments: arguments), inputs.metadata)
  }

  /// Looks the reactor up and explores it from its registered factory with its alphabet in
  /// `inputs`: every command's exploration of a reactor type.
  ///
  /// With no script, traces or recordings at all, the alphabet is the cases of the reactor's
  /// `Action` that carry no payload or only `Optional` ones (sent as `nil`), and a note on
  /// standard error says so.
  /// - Throws: ``CommandFailure`` for a reactor not registered or no actions; the
  ///   exploration's error.
  static func explore(
    _ reactor: String, in inputs: ExplorationInputs, arguments: ExplorationArguments
  ) async throws -> Exploration {
    let registry = ReactorRegistry.current
    guard let entry = registry.entry(named: reactor) else {
      throw CommandFailure.unusableInput(registry.unknownReactorMessage(reactor))
    }
    let name = registry.registeredName(matching: reactor) ?? reactor
    var alphabet = inputs.alphabet(of: name)
    if alphabet.isEmpty, arguments.script == nil, arguments.actionTraces.isEmpty,
      inputs.recordingCount == 0
    {
      alphabet = entry.payloadFreeActions
      if !alphabet.isEmpty {
        CommandFailure.printWarning(
          "note: no --actions or --actions-from: exploring the cases of the Action without "
            + "payload (Optional payloads as nil): "
            + alphabet.map(\.serializedString).joined(separator: ", "))
      }
    }
    guard !alphabet.isEmpty else {
      throw CommandFailure.unusableInput(
        "no actions to explore: give a script with --actions or traces with --actions-from "
          + "(the Action has no case without payload)")
    }
    defer { ReactorTrap.clear() }
    return try await entry.explore(alphabet, inputs.metadata, arguments.options) { script in
      // Breadth first: the first script that traps is a shortest one.
      ReactorTrap.running(
        crashReport(script, reactor: name, metadata: inputs.metadata),
        exitCode: ReactorTrap.exitCode)
    }
  }

  /// What exploring one reactor type of recordings gave.
  enum Outcome {
    /// The type's explored graph.
    case explored(Exploration)
    /// Why the type was not explored: not registered, sent no action, or its exploration
    /// could not run (a state that is not Encodable, an action that does not decode).
    case skipped(String)
    /// The reactor trapped: the report's lines, the first saying after which actions, the
    /// others the script that reproduces it.
    case trapped([String])
  }

  /// The `reactor-trace` executable running now, when it runs from the command line.
  ///
  /// Each reactor type of a session is explored in a process of its own, so that one type's
  /// trap is reported for that type and the others go on. `nil` in process (tests, a library).
  @TaskLocal static var executable: String?

  /// Explores a reactor type of recordings as ``explore(_:in:arguments:)`` does, or says why
  /// not.
  static func explore(
    _ type: ExplorationInputs.ReactorType, in inputs: ExplorationInputs,
    arguments: ExplorationArguments
  ) async -> Outcome {
    guard ReactorRegistry.current.entry(named: type.type) != nil else {
      return .skipped("not registered, so not explored")
    }
    guard !type.alphabet.isEmpty else { return .skipped("sent no action, so not explored") }
    if let executable {
      return exploreApart(type, in: inputs, arguments: arguments, executable: executable)
    }
    do {
      return .explored(try await explore(type.type, in: inputs, arguments: arguments))
    } catch {
      return .skipped("not explored: \(error)")
    }
  }

  /// Explores a reactor type in a child process (`explore TYPE --actions ALPHABET --format
  /// json`), whose trap ends only that process.
  private static func exploreApart(
    _ type: ExplorationInputs.ReactorType, in inputs: ExplorationInputs,
    arguments: ExplorationArguments, executable: String
  ) -> Outcome {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("reactor-trace-explore-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let alphabet = directory.appendingPathComponent("alphabet.jsonl")
    let output = directory.appendingPathComponent("stdout")
    let errors = directory.appendingPathComponent("stderr")
    var lines = [
      JSONValue.object(
        JSONObject([
          ("reactor", .string(type.type)),
          (
            "meta",
            .object(
              JSONObject(inputs.metadata.sorted { $0.key < $1.key }.map { ($0, .string($1)) }))
          ),
        ])
      ).serializedString
    ]
    for action in type.alphabet {
      lines.append(
        JSONValue.object(JSONObject([("t", .int(0)), ("action", action)])).serializedString)
    }
    var command = [
      "explore", type.type, "--actions", alphabet.path, "--format", "json", "--max-states",
      String(arguments.maxStates), "--settle", String(arguments.settle),
    ]
    if let depth = arguments.maxDepth { command += ["--max-depth", String(depth)] }
    if let limit = arguments.timeLimit { command += ["--time-limit", String(limit)] }
    let process = Process()
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try (lines.joined(separator: "\n") + "\n").write(
        to: alphabet, atomically: true, encoding: .utf8)
      _ = FileManager.default.createFile(atPath: output.path, contents: nil)
      _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = command
      process.standardOutput = try FileHandle(forWritingTo: output)
      process.standardError = try FileHandle(forWritingTo: errors)
      try process.run()
    } catch {
      return .skipped("not explored: its process did not start (\(error))")
    }
    process.waitUntilExit()
    let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    let complaints = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
    // Swift's own message of a trap, and any note, go on to standard error.
    if !complaints.isEmpty { FileHandle.standardError.write(Data(complaints.utf8)) }
    if let json = try? JSONValue(parsing: printed), let exploration = try? Exploration(json: json) {
      return .explored(exploration)
    }
    let report = printed.split(separator: "\n").map(String.init)
    if process.terminationReason == .exit, process.terminationStatus == ReactorTrap.exitCode,
      !report.isEmpty
    {
      return .trapped(report)
    }
    let reason = complaints.split(separator: "\n").last.map(String.init) ?? ""
    return .skipped(
      "not explored: "
        + (reason.isEmpty
          ? "its process ended with status \(process.terminationStatus)"
          : String(reason.trimmingPrefix("reactor-trace: "))))
  }

  /// A whole state's abstract state: the fields `abstraction` keeps, `(any state)` when it
  /// keeps none.
  nonisolated static func abstractState(_ state: JSONValue, _ abstraction: StateAbstraction)
    -> String
  {
    let fields = abstraction.fields(of: .json(state))
    return fields.isEmpty ? "(any state)" : fields.map(\.text).joined(separator: ", ")
  }

  /// `1 state`, `2 states`.
  nonisolated static func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  /// The one line refusing an option that has no meaning when each reactor type of
  /// recordings is explored.
  nonisolated static func refuse(_ options: [(name: String, isGiven: Bool)]) throws(CommandFailure)
  {
    guard let given = options.first(where: \.isGiven) else { return }
    throw .unusableInput(
      "\(given.name) does not apply to sessions: each reactor type is explored with the "
        + "actions its reactors were sent, its states seen through the type's abstraction")
  }

  /// What `explore` and `coverage` print when `script` traps the reactor: a finding written
  /// like a broken invariant, with the script to reproduce it.
  static func crashReport(
    _ script: ExplorationScript, reactor: String, metadata: [String: String]
  ) -> String {
    let count = script.steps.count
    let summary = count == 0 ? "building the reactor" : script.summary
    return
      ([
        "the reactor trapped (Swift's message is on standard error) after \(count) action"
          + (count == 1 ? "" : "s") + ": \(summary)"
      ]
      + script.lines(reactor: reactor, metadata: metadata).map { "  " + $0 })
      .joined(separator: "\n")
  }

  /// Records `script` through the registry, as `record` would, and writes the trace.
  static func record(
    _ script: ExplorationScript, reactor: String, metadata: [String: String], to path: String
  ) async throws {
    guard let entry = ReactorRegistry.current.entry(named: reactor) else { return }
    let (trace, _) = try await entry.record(
      script.script(reactor: reactor, metadata: metadata), metadata, .seconds(10), nil)
    try trace.write(to: path)
  }
}
