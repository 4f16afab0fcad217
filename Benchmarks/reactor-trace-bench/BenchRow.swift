/// One row of the table: what is measured, how, and against what.
struct BenchRow: Sendable {
  /// How one run of the row is carried out, always in a process of its own.
  enum Job: Sendable {
    /// The benchmark itself, re-invoked as `reactor-trace-bench child ARGUMENTS`; the child
    /// times the measured part and reports it.
    case child([String])
    /// The built `reactor-trace` with these arguments, timed from spawn to exit; it must
    /// exit with 0 and write `output`, whose size is compared with `input`'s when given.
    case tool([String], output: String, input: String? = nil)
    /// A Python script of `Benchmarks/live` with these arguments and `--bin` the directory the
    /// benchmark is built in (it runs the `reactor-trace-serve` and
    /// `reactor-trace-live-example` built there, and headless Chromium); it reports like a
    /// child, with a `RESULT` line.
    case script(String, [String])
  }

  /// A file some rows read, made before they run and outside any timing.
  enum Prerequisite: Equatable, Sendable {
    /// The counter-concat trace of this many actions (four events each) at this path.
    case concatTrace(actions: Int, path: String)
    /// The Counter's timeline trace: the script at `script`, recorded to `path`.
    case timelineTrace(script: String, path: String, increases: Int)
    /// A session of this many counter-concat reactors and actions (round robin, four events
    /// each) at this path.
    case session(reactors: Int, actions: Int, path: String)
  }

  /// The scenario's name.
  var scenario: String
  /// The variant: a tracing mode, or the size of the trace read.
  var mode: String
  /// How many units one run processes.
  var count: Int
  /// What a unit is: actions, events or steps.
  var unit: String
  /// Whether the throughput is also shown in MB/s (the child reports the bytes).
  var showsMegabytes = false
  /// The targets; none for rows that are only measured.
  var targets: [BenchTarget] = []
  /// ReactorKit's untraced throughput for the same scenario, in units per second: the fixed
  /// figure measured on ``ReactorKitCalibration/fixedFiguresMachine``.
  var reactorKit: Double?
  /// How a run is carried out.
  var job: Job
  /// Files the row reads.
  var prerequisites: [Prerequisite] = []

  /// The name `--filter` matches: `counter-sync/untraced`.
  var id: String { "\(scenario)/\(mode)" }
}
