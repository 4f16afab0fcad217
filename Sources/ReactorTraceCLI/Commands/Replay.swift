import ArgumentParser
import ConcurrencyExtras
import Foundation
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

    /// The trace, or the corpus: files, folders and globs.
    @Argument(
      help: """
        The trace or session file; several, or folders and globs, replay each in parallel \
        (a corpus).
        """)
    var traces: [String]

    /// With a corpus: how many replays run at once.
    @Option(help: "With several inputs: how many worker processes replay at once (default: cores).")
    var jobs: Int?

    /// With a corpus: where the JUnit report goes.
    @Option(help: "With several inputs: write a JUnit XML report here (one test case per input).")
    var junit: String?

    /// Replays the inputs as a corpus's worker process.
    @Flag(help: .hidden)
    var corpusWorker = false

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

    /// The one input, unless the inputs are a corpus: several, a folder, a glob, or a JUnit
    /// report asked for.
    private var singleTrace: String? {
      guard traces.count == 1, junit == nil, !corpusWorker else { return nil }
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: traces[0], isDirectory: &isDirectory)
      if exists && isDirectory.boolValue { return nil }
      if !exists && traces[0].contains(where: { "*?[".contains($0) }) { return nil }
      return traces[0]
    }

    /// Checks the arguments before anything is read.
    func validate() throws {
      guard !traces.isEmpty else { throw ValidationError("Give a trace.") }
      if singleTrace == nil {
        guard !steps, from == nil, to == nil, stateAt == nil, !json else {
          throw ValidationError(
            "--steps, --from, --to, --state-at and --json replay one input; give one trace.")
        }
      }
      if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
      if let from, from < 1 { throw ValidationError("--from must be at least 1.") }
      if let from, let to, to < from { throw ValidationError("--to must not be before --from.") }
      if let stateAt, stateAt < 0 { throw ValidationError("--state-at must be at least 0.") }
      if effects != nil, mode != .mutate {
        throw ValidationError("--effects applies to --mode mutate only.")
      }
    }

    /// Replays and reports.
    func run() async throws {
      let request = { @Sendable (trace: String) in
        ReplayRequest(
          trace: trace, mode: mode, reactor: reactor, steps: steps, from: from, to: to,
          stateAt: stateAt, json: json, strict: strictness.strict,
          effects: effects?.replayEffects ?? .run, reactorID: reactorID)
      }
      if corpusWorker {
        let code = await CorpusWorker(inputs: traces, request: request).run()
        if code != .success { throw code }
        return
      }
      guard let singleTrace else {
        var options = ["--mode", mode.rawValue]
        if let effects { options += ["--effects", effects.rawValue] }
        if let reactor { options += ["--reactor", reactor] }
        if let reactorID { options += ["--reactor-id", String(reactorID)] }
        if strictness.strict { options.append("--strict") }
        try await CorpusReplayRequest(
          inputs: traces, options: options,
          jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, junit: junit
        ).exit()
        return
      }
      try await request(singleTrace).exit()
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
///
/// A trace of one reactor is a session of one reactor, id 1: the same steps for both. Every
/// replay is structural first; then the reactor to replay through code (`--reactor-id`, or
/// the only reactor of a trace of one reactor) replays through `reduce` or `mutate`, or, with
/// `--mode mutate` and no such reactor, the whole session through its app.
@MainActor
private struct ReplayRun {
  let command: ReplayRequest
  let output: any TextOutput

  func run() async throws -> ExitCode {
    let registry = ReactorRegistry.current
    do {
      let structural = try StructuralReplay(path: command.trace)
      try structural.start()
      let target = command.reactorID ?? structural.onlyReactor
      // The registered reactor to replay, checked before anything is printed when its type
      // is known at the start.
      var name = command.reactor ?? target.flatMap { structural.liveReactors[$0]?.type }
      if let name, command.reactor != nil || target != nil {
        try checkRegistered(name, in: registry)
      }

      // Structural replay, printing what was asked for.
      let range = printedRange
      var statesAt = command.stateAt == 0 ? structural.liveStates(at: 0) : nil
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
          if step.sequence == command.stateAt {
            statesAt = structural.liveStates(at: step.sequence)
          }
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
        guard let statesAt else {
          warnings.print(strict: false)
          throw CommandFailure.unusableInput(
            "the trace has no event \(stateAt): " + eventsText(structural))
        }
        output.write(command.json ? statesAt.json.serializedString : statesAt.description)
      }
      warnings.print(strict: command.strict)
      if let divergence = structural.divergences.first {
        report(
          divergence: divergence.description, sequence: divergence.sequence, mode: "structural",
          steps: structural.stepCount, warnings: warnings)
        return .divergence
      }
      if let target {
        guard let type = structural.reactorType(of: target) else {
          throw CommandFailure.unusableInput(
            ReplayError.noSuchReactor(
              "reactor \(target)", reactors: structural.introducedReactors
            ).description)
        }
        name = command.reactor ?? type
        try checkRegistered(command.reactor ?? type, in: registry)
      }
      let entry = name.flatMap { registry.entry(named: $0) }
      if command.mode == .mutate, target == nil {
        return try await mutateSession(structural, registry: registry, warnings: warnings)
      }
      guard command.mode != .structural, let name, let entry, let target else {
        report(
          match: "structural", steps: structural.stepCount,
          summary: structural.matchSummary, reactor: name,
          registered: name == nil || entry != nil, warnings: warnings, schemaChanges: [])
        return verdict(warnings)
      }
      let of = structural.ofReactor(target)
      let lane = try ReplayLane(of: target, in: structural, path: command.trace)
      defer { lane.remove() }
      let result: ReplayResult
      defer { ReactorTrap.clear() }
      if command.mode == .mutate {
        if command.effects == .run, structural.onlyReactor == nil {
          throw CommandFailure.unusableInput(
            "one reactor of a session replays through mutate with --effects recorded only: its "
              + "effects' service events reach other reactors, which the lane alone does not run")
        }
        let wasSerial = uncheckedUseMainSerialExecutor
        uncheckedUseMainSerialExecutor = true
        defer { uncheckedUseMainSerialExecutor = wasSerial }
        result = try await entry.mutate(lane.path, lane.metadata, command.effects) {
          sequence, label in
          ReactorTrap.running(
            "divergence (\(mutateMode) replay\(of)): the reactor trapped (Swift's message is on "
              + "standard error) at event \(sequence), the action \(label), or in what it started",
            exitCode: ReactorTrap.exitCode)
        }
      } else {
        ReactorTrap.running(
          "divergence (reduce replay\(of)): the reactor trapped (Swift's message is on standard error) in reduce at "
            + "event ", then: " (replay --steps --from and --to that event show its mutation)",
          exitCode: ReactorTrap.exitCode)
        result = try entry.reduce(lane.path, lane.metadata)
      }
      if !result.schemaChanges.isEmpty, !command.json {
        CommandFailure.printWarning(
          "note: the reactor's types changed since the recording, in ways this trace survives: "
            + result.schemaChanges.map(\.description).joined(separator: "; "))
      }
      if let divergence = result.divergence {
        report(
          divergence: divergence.description, sequence: divergence.sequence,
          mode: command.mode == .mutate ? mutateMode : "reduce", of: of,
          steps: result.stepsChecked, warnings: warnings)
        return .divergence
      }
      report(
        match: command.mode == .mutate ? "mutate" : "reduce", steps: result.stepsChecked,
        summary: "", reactor: name, of: of, registered: true, warnings: warnings,
        schemaChanges: result.schemaChanges, played: result.playedEffects)
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

  /// Fails when `name` is not registered and `--reactor` named it, or when the mode needs
  /// reactor code.
  private func checkRegistered(_ name: String, in registry: ReactorRegistry) throws {
    guard registry.entry(named: name) == nil else { return }
    if command.reactor != nil {
      throw CommandFailure.unusableInput(registry.unknownReactorMessage(name))
    }
    if command.mode == .reduce || command.mode == .mutate {
      throw CommandFailure.unusableInput(
        "the trace's reactor '\(name)' is not registered, so it cannot be replayed through "
          + "\(command.mode.rawValue); use --mode structural or a reactor-trace built with it")
    }
  }

  /// Mutate replay of a whole session through the app its metadata names: every reactor it
  /// creates, service events delivered from the session.
  private func mutateSession(
    _ structural: StructuralReplay, registry: ReactorRegistry, warnings: TraceWarningReport
  ) async throws -> ExitCode {
    let session = try SessionTrace(contentsOf: command.trace)
    let (app, entry) = try registry.sessionEntry(for: session.header)
    // The session factory's replay runs on the main serial executor.
    let result = try await entry.mutate(session, command.effects, .seconds(10))
    let recorded = command.effects == .recorded
    if let divergence = result.divergence {
      report(
        divergence: divergence.description, sequence: divergence.sequence,
        mode: mutateMode, of: " of the session", steps: result.matchedEvents, warnings: warnings)
      return .divergence
    }
    let text =
      "re-sent the \(result.userActions) user actions to \(app) on a test clock"
      + (recorded
        ? " with every effect played back from the session, not run"
          + playedText(result.playedEffects) : "")
      + "; all \(result.matchedEvents) events of \(session.reactors.count) reactors are the "
      + "recorded ones, service events and their origins included"
    report(
      match: "mutate", steps: result.matchedEvents, summary: text, reactor: app,
      registered: true, warnings: warnings, schemaChanges: [], played: result.playedEffects)
    return verdict(warnings)
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

  /// ` (search ×6, next page ×3)`, or in a session ` (reactor 1: fetch tasks ×2; reactor 2:
  /// save ×2)`: the effects played back, by reactor and name; empty when none were.
  private func playedText(_ played: [PlayedEffect]) -> String {
    guard !played.isEmpty else { return "" }
    var groups: [(reactor: Int?, names: [String], counts: [String: Int], carried: Int)] = []
    for effect in played {
      if groups.last?.reactor != effect.reactor || groups.isEmpty {
        groups.append((effect.reactor, [], [:], 0))
      }
      let last = groups.count - 1
      if effect.isCarriedOver {
        groups[last].carried += 1
        continue
      }
      let name = effect.name ?? "unnamed"
      if groups[last].counts[name] == nil { groups[last].names.append(name) }
      groups[last].counts[name, default: 0] += 1
    }
    let text = groups.map { group in
      var parts = group.names.map { "\($0) ×\(group.counts[$0] ?? 0)" }
      if group.carried > 0 {
        parts.append("\(group.carried) already running when the trace starts")
      }
      let names = parts.joined(separator: ", ")
      return group.reactor.map { "reactor \($0): \(names)" } ?? names
    }
    return " (" + text.joined(separator: "; ") + ")"
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

  /// Reports a match: `summary` is what a structural replay or a whole session's mutate
  /// replay found; `of` follows what is said of one reactor of a session.
  private func report(
    match mode: String, steps: Int, summary: String, reactor: String?, of: String = "",
    registered: Bool, warnings: TraceWarningReport, schemaChanges: [SchemaChange],
    played: [PlayedEffect] = []
  ) {
    if command.json {
      output.write(
        Verdict(
          outcome: .match(checked: steps), mode: mode, reactor: reactor.map(JSONValue.string),
          warnings: warnings.warnings.map(\.description), marksIncomplete: true,
          schemaChanges: schemaChanges,
          playedEffects: mode == "mutate" && command.effects == .recorded ? played : nil
        ).serialized)
      return
    }
    let verdict = warnings.isEmpty ? "match:" : "match \(warnings.verdictNote):"
    let reactor = reactor ?? ""
    switch mode {
    case "structural":
      output.write(
        "\(verdict) \(summary)"
          + (registered ? "" : " (\(reactor) is not registered: structural replay only)"))
    case "mutate" where !summary.isEmpty:
      output.write("\(verdict) \(summary)")
    case "mutate" where command.effects == .recorded:
      output.write(
        "\(verdict) re-sent the recorded actions\(of) to \(reactor) on a test clock with every "
          + "effect played back from the trace, not run" + playedText(played)
          + "; each action's effects and cancellations, all \(steps) mutations and every state "
          + "are the recorded ones")
    case "mutate":
      output.write(
        "\(verdict) re-sent the recorded actions\(of) to \(reactor) on a test clock; "
          + "all \(steps) mutations are the recorded ones")
    default:
      output.write(
        "\(verdict) \(steps) mutations\(of) replayed through \(reactor).reduce; "
          + "every state equals the recorded one")
    }
  }

  private func report(
    divergence: String, sequence: Int?, mode: String, of: String = "", steps: Int,
    warnings: TraceWarningReport
  ) {
    if command.json {
      output.write(
        Verdict(
          outcome: .divergence(sequence: sequence, report: divergence), mode: mode,
          warnings: warnings.warnings.map(\.description), marksIncomplete: true
        ).serialized)
      return
    }
    output.write(
      "divergence (\(mode) replay\(of))" + (warnings.isEmpty ? "" : " \(warnings.verdictNote)")
        + ": \(divergence)")
  }
}
