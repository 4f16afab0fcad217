import ArgumentParser
import Foundation
import ReactorReplay
import ReactorTracing

/// `replay` of a session (format 2.0): structural replay of every reactor and every cause
/// across reactors, then, with `--reactor-id`, one reactor through today's `reduce`.
@MainActor
struct SessionReplayRun {
  let command: ReplayRequest
  let output: any TextOutput

  /// Whether `path` is a session: its first line declares format 2.x.
  static func isSession(_ path: String) -> Bool {
    guard let reader = try? SessionReader(path: path, verifyingStates: false) else {
      return false
    }
    return reader.header.version.major == SessionHeader.currentVersion.major
  }

  func run() async throws -> ExitCode {
    if command.mode == .mutate {
      return try await mutate()
    }
    let replay = try StructuralSessionReplay(path: command.trace)
    let range =
      command.steps || command.from != nil || command.to != nil
      ? (command.from ?? 1)...(command.to ?? Int.max) : nil
    var statesAt: [(ReactorIntroduction, TraceHeader.State)]? = command.stateAt == 0 ? [] : nil
    while let step = try replay.next() {
      if step.step.sequence == command.stateAt { statesAt = liveStates(of: replay) }
      guard let range, range.contains(step.step.sequence) else { continue }
      if command.json {
        var json = step.step.json
        if case .object(var object) = json, let reactor = step.reactor {
          object["reactor"] = .int(Int64(reactor))
          json = .object(object)
        }
        output.write(json.serializedString)
      } else {
        output.write(step.description)
      }
    }
    let warnings = TraceWarningReport(
      path: command.trace, warnings: replay.warnings, eventCount: replay.stepCount)
    if let stateAt = command.stateAt {
      guard let statesAt else {
        warnings.print(strict: false)
        throw CommandFailure.unusableInput(
          "the session has no event \(stateAt): it has \(replay.stepCount) events")
      }
      write(states: statesAt, at: stateAt)
    }
    warnings.print(strict: command.strict)
    if let divergence = replay.divergences.first {
      write(
        result: "divergence", mode: "structural",
        text: "divergence (structural replay): \(divergence)")
      return .divergence
    }
    let causality = replay.causality
    guard let reactorID = command.reactorID else {
      write(
        result: "match", mode: "structural",
        text: "match: \(replay.stepCount) events of \(reactorCount(replay)) reactors; every "
          + "state matches its hash and every cause is consistent; "
          + "\(causality.resolvedActions) of \(causality.resolvedActions + causality.unresolvedActions) actions and "
          + "\(causality.resolvedMutations) of \(causality.resolvedMutations + causality.unresolvedMutations) mutations "
          + "resolve to a user action or a named stream")
      return command.strict && !warnings.isEmpty ? .strictWarnings : .success
    }
    let session = try SessionTrace(contentsOf: command.trace)
    guard let lane = session.lane(of: reactorID) else {
      throw CommandFailure.unusableInput(
        ReplayError.noSuchReactor(
          "reactor \(reactorID)", reactors: session.reactors.map(\.reactor)
        ).description)
    }
    let registry = ReactorRegistry.current
    guard let entry = registry.entry(named: lane.header.reactor) else {
      throw CommandFailure.unusableInput(registry.unknownReactorMessage(lane.header.reactor))
    }
    let path = NSTemporaryDirectory() + "reactor-trace-lane-\(getpid())-\(reactorID).trace.jsonl"
    try lane.write(to: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try entry.reduce(path, lane.header.metadata)
    if let divergence = result.divergence {
      write(
        result: "divergence", mode: "reduce",
        text: "divergence (reduce replay of reactor \(reactorID)): \(divergence)")
      return .divergence
    }
    write(
      result: "match", mode: "reduce",
      text: "match: "
        + (result.stepsChecked == 1 ? "1 mutation" : "\(result.stepsChecked) mutations")
        + " of reactor \(reactorID) replayed through "
        + "\(lane.header.reactor).reduce; every state equals the recorded one")
    return command.strict && !warnings.isEmpty ? .strictWarnings : .success
  }

  /// Replays the whole session through the app its registered session factory builds.
  private func mutate() async throws -> ExitCode {
    if command.reactorID != nil {
      throw CommandFailure.unusableInput(
        "--mode mutate replays a whole session through its session factory; "
          + "--reactor-id replays one reactor through reduce")
    }
    if command.effects == .recorded {
      throw CommandFailure.unusableInput(
        "a session replays through mutate with its services running (--effects run): "
          + "its session factory wires them")
    }
    let session = try SessionTrace(contentsOf: command.trace)
    let (app, entry) = try ReactorRegistry.current.sessionEntry(for: session.header)
    let result = try await entry.mutate(session, .seconds(10))
    if let divergence = result.divergence {
      write(
        result: "divergence", mode: "mutate",
        text: "divergence (mutate replay of the session through the '\(app)' session "
          + "factory): \(divergence)")
      return .divergence
    }
    write(
      result: "match", mode: "mutate",
      text: "match: \(result.matchedEvents) events of \(session.reactors.count) reactors "
        + "recorded again through the '\(app)' session factory from \(result.userActions) "
        + "user actions; every action, mutation, state and cause across reactors is the "
        + "recorded one")
    return .success
  }

  /// Every live reactor with its state, in the order of their ids.
  private func liveStates(of replay: StructuralSessionReplay) -> [(
    ReactorIntroduction, TraceHeader.State
  )] {
    replay.liveReactors.sorted { $0.key < $1.key }.compactMap { id, introduction in
      replay.currentState(of: id).map { (introduction, $0) }
    }
  }

  /// Prints the states of the reactors live after event `sequence`: a line each, or one JSON
  /// object `{"stateAt": N, "reactors": [{"reactor", "type", "name", "state"}]}`.
  private func write(states: [(ReactorIntroduction, TraceHeader.State)], at sequence: Int) {
    guard command.json else {
      if states.isEmpty { output.write("no reactor is live after event \(sequence)") }
      for (introduction, state) in states {
        let name = introduction.name.map { " '\($0)'" } ?? ""
        let text =
          switch state {
          case .json(let json): json.serializedString
          case .description(let text): text
          }
        output.write(
          "state of reactor \(introduction.reactor)\(name) (\(introduction.type)) after event "
            + "\(sequence): \(text)")
      }
      return
    }
    var object = JSONObject()
    object["stateAt"] = .int(Int64(sequence))
    object["reactors"] = .array(
      states.map { introduction, state in
        var reactor = JSONObject()
        reactor["reactor"] = .int(Int64(introduction.reactor))
        reactor["type"] = .string(introduction.type)
        reactor["name"] = introduction.name.map(JSONValue.string) ?? .null
        switch state {
        case .json(let json): reactor["state"] = json
        case .description(let text): reactor["stateDescription"] = .string(text)
        }
        return .object(reactor)
      })
    output.write(JSONValue.object(object).serializedString)
  }

  private func reactorCount(_ replay: StructuralSessionReplay) -> Int {
    replay.introducedCount
  }

  private func write(result: String, mode: String, text: String) {
    guard command.json else {
      output.write(text)
      return
    }
    var object = JSONObject()
    object["result"] = .string(result)
    object["mode"] = .string(mode)
    object["report"] = .string(text)
    output.write(JSONValue.object(object).serializedString)
  }
}
