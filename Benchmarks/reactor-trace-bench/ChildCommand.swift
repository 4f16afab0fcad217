import Foundation
import ReactorTracing

/// What the benchmark does when it re-invokes itself as `reactor-trace-bench child …`: one
/// measurement, reported as one ``ChildReport`` line on standard output.
enum ChildCommand: Equatable {
  /// `runtime SCENARIO MODE COUNT DIRECTORY`
  case runtime(RuntimeScenario, TracingMode, count: Int, directory: String)
  /// `trace-write ACTIONS PATH`
  case traceWrite(actions: Int, path: String)
  /// `trace-read PATH EVENTS`
  case traceRead(path: String, events: Int)
  /// `replay PATH STEPS`
  case replay(path: String, steps: Int)
  /// `crash-record wait|drop PATH COUNTER_PATH`: records until killed.
  case crashRecord(TraceOverflowPolicy, path: String, counterPath: String)
  /// `crash-loss wait|drop KILLS DIRECTORY`: kills recordings and reports the largest loss.
  case crashLoss(TraceOverflowPolicy, kills: Int, directory: String)
  /// `explore SCENARIO REPETITIONS`
  case explore(ExploreWorkload.Scenario, repetitions: Int)
  /// `session-record REACTORS ACTIONS`: many reactors recorded into one session in memory.
  case sessionRecord(reactors: Int, actions: Int)
  /// `session-write REACTORS ACTIONS PATH`: such a session, written to a file.
  case sessionWrite(reactors: Int, actions: Int, path: String)
  /// `session-read PATH EVENTS`: a session file replayed structurally.
  case sessionRead(path: String, events: Int)
  /// `session-file SCENARIO REACTORS ACTIONS PATH [observed] [untraced]`: reactors of a
  /// runtime scenario recorded into one session written to a file as it runs; `observed`,
  /// with the state observers of the scenario's `runtime` run; `untraced`, the same reactors,
  /// observers and loop with no recorder (and no file): callgrind's subtrahend for a session
  /// lane's main-thread cost.
  case sessionFile(
    SessionWorkload.FileScenario, reactors: Int, actions: Int, path: String, observed: Bool,
    untraced: Bool)

  /// Parses the arguments after `child`.
  /// - Throws: ``BenchFailure/usage(_:)`` for anything else.
  init(arguments: [String]) throws(BenchFailure) {
    switch arguments.first {
    case "runtime":
      guard arguments.count == 5, let scenario = RuntimeScenario(rawValue: arguments[1]),
        let mode = TracingMode(rawValue: arguments[2]), let count = Int(arguments[3])
      else { throw .usage("child runtime SCENARIO MODE COUNT DIRECTORY") }
      self = .runtime(scenario, mode, count: count, directory: arguments[4])
    case "trace-write":
      guard arguments.count == 3, let actions = Int(arguments[1]) else {
        throw .usage("child trace-write ACTIONS PATH")
      }
      self = .traceWrite(actions: actions, path: arguments[2])
    case "trace-read":
      guard arguments.count == 3, let events = Int(arguments[2]) else {
        throw .usage("child trace-read PATH EVENTS")
      }
      self = .traceRead(path: arguments[1], events: events)
    case "replay":
      guard arguments.count == 3, let steps = Int(arguments[2]) else {
        throw .usage("child replay PATH STEPS")
      }
      self = .replay(path: arguments[1], steps: steps)
    case "explore":
      guard arguments.count == 3, let scenario = ExploreWorkload.Scenario(rawValue: arguments[1]),
        let repetitions = Int(arguments[2]), repetitions >= 1
      else { throw .usage("child explore counter|github-search REPETITIONS") }
      self = .explore(scenario, repetitions: repetitions)
    case "session-record":
      guard arguments.count == 3, let reactors = Int(arguments[1]), let actions = Int(arguments[2])
      else { throw .usage("child session-record REACTORS ACTIONS") }
      self = .sessionRecord(reactors: reactors, actions: actions)
    case "session-write":
      guard arguments.count == 4, let reactors = Int(arguments[1]), let actions = Int(arguments[2])
      else { throw .usage("child session-write REACTORS ACTIONS PATH") }
      self = .sessionWrite(reactors: reactors, actions: actions, path: arguments[3])
    case "session-read":
      guard arguments.count == 3, let events = Int(arguments[2]) else {
        throw .usage("child session-read PATH EVENTS")
      }
      self = .sessionRead(path: arguments[1], events: events)
    case "session-file":
      let flags = arguments.dropFirst(5)
      guard arguments.count >= 5, Set(flags).isSubset(of: ["observed", "untraced"]),
        Set(flags).count == flags.count,
        let scenario = SessionWorkload.FileScenario(rawValue: arguments[1]),
        let reactors = Int(arguments[2]), let actions = Int(arguments[3])
      else {
        throw .usage(
          "child session-file counter-concat|counter-sync|state-large REACTORS ACTIONS PATH"
            + " [observed] [untraced]")
      }
      self = .sessionFile(
        scenario, reactors: reactors, actions: actions, path: arguments[4],
        observed: flags.contains("observed"), untraced: flags.contains("untraced"))
    case "crash-record":
      guard arguments.count == 4, let policy = Self.policy(arguments[1]) else {
        throw .usage("child crash-record wait|drop PATH COUNTER_PATH")
      }
      self = .crashRecord(policy, path: arguments[2], counterPath: arguments[3])
    case "crash-loss":
      guard arguments.count == 4, let policy = Self.policy(arguments[1]),
        let kills = Int(arguments[2]), kills >= 1
      else { throw .usage("child crash-loss wait|drop KILLS DIRECTORY") }
      self = .crashLoss(policy, kills: kills, directory: arguments[3])
    default:
      throw .usage(
        "child runtime|trace-write|trace-read|replay|explore|session-record|session-write|"
          + "session-read|session-file|crash-record|crash-loss …")
    }
  }

  /// Runs the measurement.
  @MainActor
  func run() async throws(BenchFailure) -> ChildReport {
    switch self {
    case .runtime(let scenario, let mode, let count, let directory):
      try await RuntimeRun.run(scenario, mode: mode, count: count, directory: directory)
    case .traceWrite(let actions, let path):
      try await TraceWorkload.write(actions: actions, to: path)
    case .traceRead(let path, let events):
      try TraceWorkload.read(path: path, events: events)
    case .replay(let path, let steps):
      try TraceWorkload.replay(path: path, steps: steps)
    case .explore(let scenario, let repetitions):
      try await ExploreWorkload.run(scenario, repetitions: repetitions)
    case .sessionRecord(let reactors, let actions):
      try SessionWorkload.record(reactors: reactors, actions: actions)
    case .sessionWrite(let reactors, let actions, let path):
      try SessionWorkload.write(reactors: reactors, actions: actions, to: path)
    case .sessionRead(let path, let events):
      try SessionWorkload.read(path: path, events: events)
    case .sessionFile(let scenario, let reactors, let actions, let path, let observed, let untraced):
      try await SessionWorkload.recordToFile(
        scenario, reactors: reactors, actions: actions, path: path, observed: observed,
        untraced: untraced)
    case .crashRecord(let policy, let path, let counterPath):
      try CrashLoss.record(policy: policy, path: path, counterPath: counterPath)
    case .crashLoss(let policy, let kills, let directory):
      try CrashLoss.measure(
        policy: policy, kills: kills, directory: directory,
        executable: Bundle.main.executablePath ?? CommandLine.arguments[0])
    }
  }

  private static func policy(_ name: String) -> TraceOverflowPolicy? {
    switch name {
    case "wait": .wait
    case "drop": .drop
    default: nil
    }
  }
}
