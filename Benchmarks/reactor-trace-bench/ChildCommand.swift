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
  /// `explore SCENARIO REPETITIONS`
  case explore(ExploreWorkload.Scenario, repetitions: Int)

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
    default:
      throw .usage("child runtime|trace-write|trace-read|replay|explore …")
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
    }
  }
}
