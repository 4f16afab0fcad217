import ArgumentParser
import ReactorExploration
import ReactorTracing

/// Runs an exploration for a command and records scripts it found.
@MainActor
enum ExplorationRun {
  /// Reads the inputs, looks the reactor up and explores it.
  ///
  /// With neither a script nor traces, the alphabet is the cases of the reactor's `Action`
  /// that carry no payload or only `Optional` ones (sent as `nil`), and a note on standard
  /// error says so.
  static func explore(
    reactor: String?, arguments: ExplorationArguments, extraTraces: [String] = []
  ) async throws -> (Exploration, metadata: [String: String]) {
    var inputs = try ExplorationInputs(arguments, extraTraces: extraTraces)
    let registry = ReactorRegistry.current
    guard let reactor = reactor ?? inputs.reactor else {
      throw CommandFailure.unusableInput("no reactor to explore: pass --reactor")
    }
    guard let entry = registry.entry(named: reactor) else {
      throw CommandFailure.unusableInput(registry.unknownReactorMessage(reactor))
    }
    if inputs.alphabet.isEmpty, arguments.script == nil,
      (arguments.actionTraces + extraTraces).isEmpty
    {
      inputs.alphabet = entry.payloadFreeActions
      if !inputs.alphabet.isEmpty {
        CommandFailure.printError(
          "note: no --actions or --actions-from: exploring the cases of the Action without "
            + "payload (Optional payloads as nil): "
            + inputs.alphabet.map(\.serializedString).joined(separator: ", "))
      }
    }
    guard !inputs.alphabet.isEmpty else {
      throw CommandFailure.unusableInput(
        "no actions to explore: give a script with --actions or traces with --actions-from "
          + "(the Action has no case without payload)")
    }
    defer { ReactorTrap.clear() }
    let name = registry.registeredName(matching: reactor) ?? reactor
    return (
      try await entry.explore(inputs.alphabet, inputs.metadata, arguments.options) { script in
        // Breadth first: the first script that traps is a shortest one.
        ReactorTrap.running(
          crashReport(script, reactor: name, metadata: inputs.metadata),
          exitCode: ReactorTrap.exitCode)
      },
      inputs.metadata
    )
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
      script.script(reactor: reactor, metadata: metadata), metadata, .seconds(10))
    try trace.write(to: path)
  }
}
