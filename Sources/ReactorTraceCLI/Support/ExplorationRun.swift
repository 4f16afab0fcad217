import ArgumentParser
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
        CommandFailure.printError(
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
  }

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
    do {
      return .explored(try await explore(type.type, in: inputs, arguments: arguments))
    } catch {
      return .skipped("not explored: \(error)")
    }
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
