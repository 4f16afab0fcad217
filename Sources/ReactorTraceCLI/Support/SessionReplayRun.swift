import ArgumentParser
import ConcurrencyExtras
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
  nonisolated static func isSession(_ path: String) -> Bool {
    guard let reader = try? SessionReader(path: path, verifyingStates: false) else {
      return false
    }
    return reader.header.version.major == SessionHeader.currentVersion.major
  }

  func run() async throws -> ExitCode {
    if command.mode == .mutate { return try await runMutate() }
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

  /// Mutate replay: the whole session through the registered app, or with `--reactor-id`
  /// one reactor with its effects played back.
  private func runMutate() async throws -> ExitCode {
    let session = try SessionTrace(contentsOf: command.trace)
    let registry = ReactorRegistry.current
    let recorded = command.effects == .recorded
    // Effects and the test clock run deterministically on the main actor, in order.
    uncheckedUseMainSerialExecutor = true
    if let reactorID = command.reactorID {
      guard recorded else {
        throw CommandFailure.unusableInput(
          "one reactor of a session replays through mutate with --effects recorded only: its "
            + "effects' service events reach other reactors, which the lane alone does not run")
      }
      guard let lane = session.lane(of: reactorID) else {
        throw CommandFailure.unusableInput(
          ReplayError.noSuchReactor(
            "reactor \(reactorID)", reactors: session.reactors.map(\.reactor)
          ).description)
      }
      guard let entry = registry.entry(named: lane.header.reactor) else {
        throw CommandFailure.unusableInput(registry.unknownReactorMessage(lane.header.reactor))
      }
      let result = try await entry.mutateLane(session, reactorID)
      let mode = "mutate, effects recorded"
      if let divergence = result.divergence {
        write(
          result: "divergence", mode: mode,
          text: "divergence (mutate, effects recorded replay of reactor \(reactorID)): "
            + "\(divergence)")
        return .divergence
      }
      write(
        result: "match", mode: mode,
        text: "match: re-sent reactor \(reactorID)'s recorded actions to "
          + "\(lane.header.reactor) on a test clock with every effect played back from the "
          + "session, not run" + playedText(result.playedEffects)
          + "; each action's effects and cancellations, all \(result.stepsChecked) mutations "
          + "and every state are the recorded ones",
        played: result.playedEffects)
      return .success
    }
    let (app, entry) = try registry.sessionEntry(for: session.header)
    let result = try await entry.mutate(session, command.effects, .seconds(10))
    let mode = recorded ? "mutate, effects recorded" : "mutate"
    if let divergence = result.divergence {
      write(
        result: "divergence", mode: mode,
        text: "divergence (\(mode) replay of the session): \(divergence)")
      return .divergence
    }
    write(
      result: "match", mode: mode,
      text: "match: re-sent the \(result.userActions) user actions to \(app) on a test clock"
        + (recorded
          ? " with every effect played back from the session, not run"
            + playedText(result.playedEffects) : "")
        + "; all \(result.matchedEvents) events of \(session.reactors.count) reactors are the "
        + "recorded ones, service events and their origins included",
      played: result.playedEffects)
    return .success
  }

  /// ` (reactor 1: fetch tasks ×2; reactor 2: save ×2)`: the effects played back, by reactor
  /// and name.
  private func playedText(_ played: [PlayedEffect]) -> String {
    guard !played.isEmpty else { return "" }
    var groups: [(reactor: Int?, names: [(String, Int)])] = []
    for effect in played {
      let name = effect.isCarriedOver ? "already running" : effect.name ?? "unnamed"
      if groups.last?.reactor != effect.reactor || groups.isEmpty {
        groups.append((effect.reactor, []))
      }
      if let index = groups[groups.count - 1].names.firstIndex(where: { $0.0 == name }) {
        groups[groups.count - 1].names[index].1 += 1
      } else {
        groups[groups.count - 1].names.append((name, 1))
      }
    }
    let text = groups.map { group in
      let names = group.names.map { "\($0.0) ×\($0.1)" }.joined(separator: ", ")
      return group.reactor.map { "reactor \($0): \(names)" } ?? names
    }
    return " (" + text.joined(separator: "; ") + ")"
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

  private func write(
    result: String, mode: String, text: String, played: [PlayedEffect]? = nil
  ) {
    guard command.json else {
      output.write(text)
      return
    }
    var object = JSONObject()
    object["result"] = .string(result)
    object["mode"] = .string(mode)
    object["report"] = .string(text)
    if let played, command.effects == .recorded {
      object["effects"] = "recorded"
      object["playedEffects"] = .array(
        played.map { effect in
          var object = JSONObject()
          if let reactor = effect.reactor { object["reactor"] = .int(Int64(reactor)) }
          object["effect"] = .int(Int64(effect.effect))
          if let name = effect.name { object["name"] = .string(name) }
          if effect.isCarriedOver { object["alreadyRunning"] = true }
          return .object(object)
        })
    }
    output.write(JSONValue.object(object).serializedString)
  }
}
