import ArgumentParser
import ConcurrencyExtras
import ReactorReplay
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace replay`: checks a trace against itself and against today's reactor code.
  struct Replay: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Replay a trace and stop at the first divergence.",
      discussion: """
        Every replay first rebuilds each recorded state from its snapshot or diff, checks it \
        against its hash, and checks the causality links (structural replay, no reactor code \
        needed). When the trace's reactor is registered, it then feeds the recorded mutations \
        through today's reduce (--mode reduce, the default) or re-sends the recorded actions \
        on a test clock and compares the mutations (--mode mutate). In mutate mode, effects run \
        against the fakes the reactor is registered with (--effects run, the default), or are \
        played back from the trace (--effects recorded): their bodies do not run, the \
        mutations the trace recorded for them arrive at their recorded times, and each \
        action's effects and cancellations are compared too. --mode structural stops \
        after the first check. A session (many reactors, format 2.0) replays structurally, \
        every cause across reactors checked, and with --reactor-id N one reactor through \
        reduce; with --mode mutate the whole session replays through the app registered for \
        its metadata's 'app' (effects run, or played back with --effects recorded, service \
        events delivered from the session), or with --reactor-id N --effects recorded one \
        reactor. A trace cut off by a crash, without an end line, or whose \
        recording stopped with effects still running is replayed as far as it goes, with a \
        warning on standard error per problem; --strict makes them failures. Types changed \
        compatibly since the recording (a case added, an unused case removed, a State field \
        added) replay with a note. Exit codes: 0 match, 1 divergence, 2 unusable input, \
        3 warnings under --strict.
        """
    )

    /// How far to replay.
    enum Mode: String, ExpressibleByArgument, CaseIterable, Sendable {
      /// Structural, then reduce if the reactor is registered.
      case auto
      /// Structural, then through `reduce`.
      case reduce
      /// Structural, then through `mutate` on a test clock.
      case mutate
      /// Structural only.
      case structural
    }

    /// What mutate replay does with effects.
    enum Effects: String, ExpressibleByArgument, CaseIterable, Sendable {
      /// Effects run against the registered fakes.
      case run
      /// Effects are played back from the trace.
      case recorded

      /// The replay's option.
      var replayEffects: ReplayEffects {
        switch self {
        case .run: .run
        case .recorded: .recorded
        }
      }
    }

    /// The trace.
    @Argument(help: "The trace file.")
    var trace: String

    /// How far to replay.
    @Option(help: "auto, reduce, mutate or structural.")
    var mode: Mode = .auto

    /// What mutate replay does with the effects `mutate` starts.
    @Option(
      help: """
        With --mode mutate: run (effects run against the registered fakes, the default) or \
        recorded (effects played back from the trace; no fakes needed).
        """)
    var effects: Effects?

    /// The registered reactor to replay against, instead of the trace's own.
    @Option(help: "Replay against this registered reactor type instead of the trace's.")
    var reactor: String?

    /// The reactor of a session to replay through `reduce` (or `mutate`, effects recorded).
    @Option(
      name: .customLong("reactor-id"),
      help: """
        For a session: replay this reactor (its id in the session) through reduce, or with \
        --mode mutate --effects recorded through mutate.
        """)
    var reactorID: Int?

    /// Whether to print every step.
    @Flag(
      help: """
        Print every step: action, effect, mutation, and what changed in the state (from \
        --from to --to when given).
        """)
    var steps = false

    /// The first step to print.
    @Option(help: "Print the steps from this seq.")
    var from: Int?

    /// The last step to print.
    @Option(help: "Print the steps up to this seq.")
    var to: Int?

    /// Whether warnings fail the replay.
    @OptionGroup var strictness: StrictOption

    /// A step whose state to print.
    @Option(
      help:
        "Print the state after this seq (0: the initial state); for a session, every live reactor's."
    )
    var stateAt: Int?

    /// Whether to print JSON Lines instead of text.
    @Flag(
      help: """
        Print JSON Lines for tools: one object per step, then a result object (with \
        'warnings' and 'schemaChanges' when there are any).
        """)
    var json = false

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Checks the arguments before anything is read.
    func validate() throws {
      if let from, from < 1 { throw ValidationError("--from must be at least 1.") }
      if let from, let to, to < from { throw ValidationError("--to must not be before --from.") }
      if let stateAt, stateAt < 0 { throw ValidationError("--state-at must be at least 0.") }
      if effects != nil, mode != .mutate {
        throw ValidationError("--effects applies to --mode mutate only.")
      }
    }

    /// Replays and reports.
    func run() async throws {
      try await ReplayRequest(
        trace: trace, mode: mode, reactor: reactor, steps: steps, from: from, to: to,
        stateAt: stateAt, json: json, strict: strictness.strict,
        effects: effects?.replayEffects ?? .run, reactorID: reactorID
      ).exit()
    }
  }
}

/// What `replay` was asked to do.
struct ReplayRequest: CommandRequest {
  var trace: String
  var mode: ReactorTraceCommand.Replay.Mode
  var reactor: String?
  var steps: Bool
  var from: Int?
  var to: Int?
  var stateAt: Int?
  var json: Bool
  var strict = false
  /// What mutate replay does with effects.
  var effects = ReplayEffects.run
  /// For a session: the reactor to replay through `reduce`.
  var reactorID: Int? = nil

  /// Replays, reports to `output`, and returns the exit code.
  @MainActor
  func run(output: any TextOutput) async throws -> ExitCode {
    try await ReplayRun(command: self, output: output).run()
  }
}

/// One `replay` run: the request and where its report goes.
@MainActor
private struct ReplayRun {
  let command: ReplayRequest
  let output: any TextOutput

  func run() async throws -> ExitCode {
    if SessionReplayRun.isSession(command.trace) {
      return try await SessionReplayRun(command: command, output: output).run()
    }
    if command.reactorID != nil {
      throw CommandFailure.unusableInput(
        "--reactor-id applies to a session, not to a trace of one reactor")
    }
    let registry = ReactorRegistry.current
    do {
      let structural = try StructuralReplay(path: command.trace)
      let header = structural.header
      let name = command.reactor ?? header.reactor
      let entry = registry.entry(named: name)
      if command.reactor != nil, entry == nil {
        throw CommandFailure.unusableInput(registry.unknownReactorMessage(name))
      }
      if command.mode == .reduce || command.mode == .mutate, entry == nil {
        throw CommandFailure.unusableInput(
          "the trace's reactor '\(name)' is not registered, so it cannot be replayed through "
            + "\(command.mode.rawValue); use --mode structural or a reactor-trace built with it")
      }

      // Structural replay, printing what was asked for.
      let range = printedRange
      var stateAtStep: TraceHeader.State? = command.stateAt == 0 ? header.initialState : nil
      var printedSteps = 0
      if range == nil && command.stateAt == nil {
        // Nothing to print on the way: check without describing each step.
        try structural.checkRemaining()
      } else {
        try structural.forEachStep { step throws(ReplayError) in
          if let range, range.contains(step.sequence) {
            output.write(command.json ? step.json.serializedString : step.description)
            printedSteps += 1
          }
          if step.sequence == command.stateAt { stateAtStep = structural.currentState }
        }
      }
      let warnings = TraceWarningReport(
        path: command.trace, warnings: structural.warnings, eventCount: structural.stepCount)
      if let range, command.from != nil || command.to != nil, printedSteps == 0 {
        warnings.print(strict: false)
        throw CommandFailure.unusableInput(
          "no event of the trace is in \(windowText(range)): " + eventsText(structural))
      }
      if let stateAt = command.stateAt {
        guard let stateAtStep else {
          warnings.print(strict: false)
          throw CommandFailure.unusableInput(
            "the trace has no event \(stateAt): " + eventsText(structural))
        }
        output.write(
          command.json ? stateJSON(stateAtStep, at: stateAt) : stateText(stateAtStep, at: stateAt))
      }
      warnings.print(strict: command.strict)
      if let divergence = structural.divergences.first {
        report(
          divergence: divergence.description, sequence: divergence.sequence, mode: "structural",
          steps: structural.stepCount, warnings: warnings)
        return .divergence
      }
      let shouldReplayCode = command.mode != .structural && entry != nil
      guard shouldReplayCode, let entry else {
        report(
          match: "structural", steps: structural.stepCount, reactor: name,
          registered: entry != nil, warnings: warnings, schemaChanges: [])
        return verdict(warnings)
      }
      let result: ReplayResult
      defer { ReactorTrap.clear() }
      if command.mode == .mutate {
        let wasSerial = uncheckedUseMainSerialExecutor
        uncheckedUseMainSerialExecutor = true
        defer { uncheckedUseMainSerialExecutor = wasSerial }
        result = try await entry.mutate(command.trace, header.metadata, command.effects) {
          sequence, label in
          ReactorTrap.running(
            "divergence (\(mutateMode) replay): the reactor trapped (Swift's message is on "
              + "standard error) at event \(sequence), the action \(label), or in what it started",
            exitCode: ReactorTrap.exitCode)
        }
      } else {
        ReactorTrap.running(
          "divergence (reduce replay): the reactor trapped (Swift's message is on standard error) in reduce at "
            + "event ", then: " (replay --steps --from and --to that event show its mutation)",
          exitCode: ReactorTrap.exitCode)
        result = try entry.reduce(command.trace, header.metadata)
      }
      if !result.schemaChanges.isEmpty, !command.json {
        CommandFailure.printError(
          "note: the reactor's types changed since the recording, in ways this trace survives: "
            + result.schemaChanges.map(\.description).joined(separator: "; "))
      }
      if let divergence = result.divergence {
        report(
          divergence: divergence.description, sequence: divergence.sequence,
          mode: command.mode == .mutate ? mutateMode : "reduce", steps: result.stepsChecked,
          warnings: warnings)
        return .divergence
      }
      report(
        match: command.mode == .mutate ? "mutate" : "reduce", steps: result.stepsChecked,
        reactor: name, registered: true, warnings: warnings, schemaChanges: result.schemaChanges,
        played: result.playedEffects)
      return verdict(warnings)
    } catch let error as ReplayError {
      // A state that does not match its hash is a divergence, not unusable input.
      guard case .trace(let readError) = error, case .stateMismatch = readError else {
        throw error
      }
      report(
        divergence: readError.description, sequence: nil, mode: "structural", steps: 0,
        warnings: TraceWarningReport(path: command.trace, warnings: [], eventCount: 0))
      return .divergence
    }
  }

  /// Which events the trace holds, for a message about one it does not: `its events end at
  /// 19`, or for a flight-recorder window that dropped the start of the run, `it is a
  /// flight-recorder window: its events run from 7 to 19 (the 6 events before it were
  /// dropped)`.
  private func eventsText(_ structural: StructuralReplay) -> String {
    guard let last = structural.lastSequence else { return "it has no events" }
    guard let window = structural.header.window, window.droppedEvents > 0 else {
      return "its events end at \(last)"
    }
    let dropped =
      window.droppedEvents == 1 ? "the event" : "the \(window.droppedEvents) events"
    return "it is a flight-recorder window: its events run from \(window.firstSequence) to "
      + "\(last) (\(dropped) before it were dropped)"
  }

  /// How a mutate replay is named in reports: `mutate`, or `mutate, effects recorded`.
  private var mutateMode: String {
    command.effects == .recorded ? "mutate, effects recorded" : "mutate"
  }

  /// The effects played back, grouped by name: `search ×6, next page ×3`.
  private func playedText(_ played: [PlayedEffect]) -> String {
    var names: [String] = []
    var counts: [String: Int] = [:]
    var carried = 0
    for effect in played {
      if effect.isCarriedOver {
        carried += 1
        continue
      }
      let name = effect.name ?? "unnamed"
      if counts[name] == nil { names.append(name) }
      counts[name, default: 0] += 1
    }
    var parts = names.map { "\($0) ×\(counts[$0] ?? 0)" }
    if carried > 0 { parts.append("\(carried) already running when the trace starts") }
    return parts.joined(separator: ", ")
  }

  /// The exit code of a match: 3 when `--strict` and the trace had warnings.
  private func verdict(_ warnings: TraceWarningReport) -> ExitCode {
    command.strict && !warnings.isEmpty ? .strictWarnings : .success
  }

  private var printedRange: ClosedRange<Int>? {
    guard command.steps || command.from != nil || command.to != nil else { return nil }
    return (command.from ?? 1)...(command.to ?? Int.max)
  }

  private func windowText(_ range: ClosedRange<Int>) -> String {
    switch (command.from, command.to) {
    case (let from?, let to?): "--from \(from) --to \(to)"
    case (let from?, nil): "--from \(from)"
    case (nil, let to?): "--to \(to)"
    case (nil, nil): "\(range.lowerBound)…"
    }
  }

  private func report(
    match mode: String, steps: Int, reactor: String, registered: Bool,
    warnings: TraceWarningReport, schemaChanges: [SchemaChange], played: [PlayedEffect] = []
  ) {
    if command.json {
      var result = JSONObject()
      result["result"] = "match"
      result["mode"] = .string(mode)
      result["reactor"] = .string(reactor)
      result["checked"] = .int(Int64(steps))
      if !warnings.isEmpty {
        result["incomplete"] = true
        result["warnings"] = warnings.json
      }
      if !schemaChanges.isEmpty {
        result["schemaChanges"] = .array(schemaChanges.map { .string($0.description) })
      }
      if mode == "mutate", command.effects == .recorded {
        result["effects"] = "recorded"
        result["playedEffects"] = .array(
          played.map { effect in
            var object = JSONObject()
            object["effect"] = .int(Int64(effect.effect))
            if let name = effect.name { object["name"] = .string(name) }
            if effect.isCarriedOver { object["alreadyRunning"] = true }
            return .object(object)
          })
      }
      output.write(JSONValue.object(result).serializedString)
      return
    }
    let verdict = warnings.isEmpty ? "match:" : "match \(warnings.verdictNote):"
    switch mode {
    case "structural":
      output.write(
        "\(verdict) \(steps) events; every state matches its hash and every cause is consistent"
          + (registered ? "" : " (\(reactor) is not registered: structural replay only)"))
    case "mutate" where command.effects == .recorded:
      output.write(
        "\(verdict) re-sent the recorded actions to \(reactor) on a test clock with every "
          + "effect played back from the trace, not run"
          + (played.isEmpty ? "" : " (\(playedText(played)))")
          + "; each action's effects and cancellations, all \(steps) mutations and every state "
          + "are the recorded ones")
    case "mutate":
      output.write(
        "\(verdict) re-sent the recorded actions to \(reactor) on a test clock; "
          + "all \(steps) mutations are the recorded ones")
    default:
      output.write(
        "\(verdict) \(steps) mutations replayed through \(reactor).reduce; "
          + "every state equals the recorded one")
    }
  }

  private func report(
    divergence: String, sequence: Int?, mode: String, steps: Int, warnings: TraceWarningReport
  ) {
    if command.json {
      var result = JSONObject()
      result["result"] = "divergence"
      result["mode"] = .string(mode)
      if let sequence { result["seq"] = .int(Int64(sequence)) }
      result["report"] = .string(divergence)
      if !warnings.isEmpty {
        result["incomplete"] = true
        result["warnings"] = warnings.json
      }
      output.write(JSONValue.object(result).serializedString)
      return
    }
    output.write(
      "divergence (\(mode) replay)" + (warnings.isEmpty ? "" : " \(warnings.verdictNote)")
        + ": \(divergence)")
  }

  private func stateText(_ state: TraceHeader.State, at sequence: Int) -> String {
    switch state {
    case .json(let json): "state after event \(sequence): \(json.serializedString)"
    case .description(let text): "state after event \(sequence): \(text)"
    }
  }

  private func stateJSON(_ state: TraceHeader.State, at sequence: Int) -> String {
    var object = JSONObject()
    object["stateAt"] = .int(Int64(sequence))
    switch state {
    case .json(let json): object["state"] = json
    case .description(let text): object["stateDescription"] = .string(text)
    }
    return JSONValue.object(object).serializedString
  }
}
