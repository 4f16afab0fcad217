import ArgumentParser
import ReactorExploration
import ReactorFleet
import ReactorTracing

/// What `coverage --production` was asked to do: production summaries against golden traces.
struct ProductionCoverageRequest: CommandRequest {
  var production: [String]
  var traces: [String]
  var reactor: String?
  var arguments: ExplorationArguments
  var json: Bool
  /// How many missed states and transitions to list (all with `nil`).
  var limit: Int?

  /// Compares, explores for scripts when the reactor is registered, reports to `output`,
  /// and returns the exit code.
  @MainActor
  func run(output: any TextOutput) async throws -> ExitCode {
    let paths = try FleetFiles.expand(production, extensions: FleetFiles.summaryExtensions)
    var set = SummarySet()
    for path in paths { try set.add(contentsOf: path) }
    let golden = try FleetFiles.expand(traces, extensions: FleetFiles.traceExtensions)
    var coverage = try ProductionCoverage(
      production: set.summaries, reactor: reactor, goldenTracesAt: golden)
    let registered = ReactorRegistry.current.entry(named: coverage.reactor) != nil
    if registered {
      let (exploration, _) = try await ExplorationRun.explore(
        reactor: coverage.reactor, arguments: arguments, extraTraces: golden)
      coverage.addScripts(from: exploration)
    }
    if json {
      output.write(Self.json(coverage).serializedString)
    } else {
      report(coverage, registered: registered, to: output)
    }
    return .success
  }

  private func report(
    _ coverage: ProductionCoverage, registered: Bool, to output: any TextOutput
  ) {
    let golden =
      "\(coverage.goldenTraceCount) golden trace"
      + (coverage.goldenTraceCount == 1 ? "" : "s")
    output.write(
      "\(coverage.reactor): production made \(coverage.productionCount) transitions "
        + "(\(coverage.productionTransitionCount) distinct, \(coverage.productionStateCount) "
        + "states); \(golden) exercise\(coverage.goldenTraceCount == 1 ? "s" : "") \(Self.percent(coverage.exercisedShare)) of them"
    )
    output.write("abstraction: \(coverage.abstraction.summaryText)")
    if !registered {
      output.write("(\(coverage.reactor) is not registered here: no scripts)")
    }
    let states = limit.map { Array(coverage.missedStates.prefix($0)) } ?? coverage.missedStates
    output.write(
      "states production reaches that no golden trace does: \(coverage.missedStates.count)")
    for missed in states {
      output.write("  \(missed.count)×  \(Self.oneLine(missed.state))")
      if registered { output.write("      script: \(Self.script(missed.script))") }
    }
    let transitions =
      limit.map { Array(coverage.missedTransitions.prefix($0)) } ?? coverage.missedTransitions
    output.write(
      "transitions production makes that no golden trace does: "
        + "\(coverage.missedTransitions.count)")
    for missed in transitions {
      output.write(
        "  \(missed.count)×  \(Self.oneLine(missed.from)) → \(Self.oneLine(missed.to))  "
          + "\(missed.mutation) ← \(missed.action)  (\(missed.traces) traces; app "
          + missed.appVersions.map { $0.isEmpty ? "(none)" : $0 }.joined(separator: ", ") + ")")
      if registered { output.write("      script: \(Self.script(missed.script))") }
    }
    let hidden =
      coverage.missedStates.count - states.count + coverage.missedTransitions.count
      - transitions.count
    if hidden > 0 { output.write("(\(hidden) more; --limit 0 lists all)") }
  }

  private static func oneLine(_ state: String) -> String {
    state.split(separator: "\n").joined(separator: ", ")
  }

  private static func script(_ script: ExplorationScript?) -> String {
    guard let script else { return "none found within the exploration's bounds" }
    return script.steps.isEmpty ? "(the initial state)" : script.summary
  }

  private static func percent(_ share: Double) -> String {
    let tenths = Int((share * 1000).rounded())
    return "\(tenths / 10).\(tenths % 10)%"
  }

  private static func json(_ coverage: ProductionCoverage) -> JSONValue {
    func script(_ script: ExplorationScript?) -> JSONValue {
      guard let script else { return .null }
      return .array(script.steps.map { .string($0.action.label) })
    }
    return .object(
      JSONObject([
        ("reactor", .string(coverage.reactor)),
        ("abstraction", .string(coverage.abstraction.summaryText)),
        ("goldenTraces", .int(Int64(coverage.goldenTraceCount))),
        ("productionTransitions", .int(Int64(coverage.productionCount))),
        ("exercisedShare", .double(coverage.exercisedShare)),
        (
          "missedStates",
          .array(
            coverage.missedStates.map { missed in
              .object(
                JSONObject([
                  ("state", .string(missed.state)), ("count", .int(Int64(missed.count))),
                  ("script", script(missed.script)),
                ]))
            })
        ),
        (
          "missedTransitions",
          .array(
            coverage.missedTransitions.map { missed in
              .object(
                JSONObject([
                  ("from", .string(missed.from)), ("action", .string(missed.action)),
                  ("mutation", .string(missed.mutation)), ("to", .string(missed.to)),
                  ("count", .int(Int64(missed.count))), ("traces", .int(Int64(missed.traces))),
                  ("appVersions", .array(missed.appVersions.map { .string($0) })),
                  ("script", script(missed.script)),
                ]))
            })
        ),
      ]))
  }
}
