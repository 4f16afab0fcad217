import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the selected rows, each run in a child process, and prints the tables.
struct BenchDriver {
  /// The parsed command line.
  let options: BenchOptions
  /// This benchmark's executable, re-invoked for each measurement.
  let executable: String

  /// The `reactor-trace` built next to the benchmark.
  var tool: String {
    (executable as NSString).deletingLastPathComponent + "/reactor-trace"
  }

  /// Runs everything the options select and prints the tables on standard output.
  /// - Throws: ``BenchFailure`` when a run fails or a verification does not hold.
  func run() throws(BenchFailure) {
    if options.showsHelp {
      print(BenchOptions.usage)
      return
    }
    let temporary = options.workDirectory == nil
    let directory: String
    if let chosen = options.workDirectory {
      directory = chosen
    } else {
      directory = try Self.makeTemporaryDirectory()
    }
    defer {
      if temporary && !options.keepsFiles { try? FileManager.default.removeItem(atPath: directory) }
    }
    let plan = BenchPlan(directory: directory, divisor: options.isQuick ? 10 : 1)
    let rows = plan.rows.filter { options.selects($0.id) }
    if options.listsRows {
      for row in plan.rows { print(row.id) }
      return
    }
    guard !rows.isEmpty else { throw .usage("--filter selects no row; see --list") }
    try FileManager.default.createDirectoryIfNeeded(directory)

    let needsTool = rows.contains { row in
      if case .tool = row.job { return true }
      return row.prerequisites.contains { if case .timelineTrace = $0 { true } else { false } }
    }
    if needsTool && !FileManager.default.isExecutableFile(atPath: tool) {
      throw .missingTool(
        path: tool,
        hint: "The render rows run the reactor-trace command built next to the benchmark: "
          + "build it first with `swift build -c release` (the same configuration), "
          + "or leave those rows out with --filter.")
    }
    #if DEBUG
    Progress.say("warning: this is a debug build; figures are meaningless. Use -c release.")
    #endif
    Progress.say("reactor-trace-bench: \(rows.count) rows × \(options.runs) runs in \(directory)")

    var prepared: [BenchRow.Prerequisite] = []
    for prerequisite in rows.flatMap(\.prerequisites) where !prepared.contains(prerequisite) {
      try prepare(prerequisite)
      prepared.append(prerequisite)
    }
    var results: [RowResult] = []
    for row in rows {
      results.append(try measure(row))
    }
    print(ResultTable(results: results, runs: options.runs, isQuick: options.isQuick).text)
  }

  private func measure(_ row: BenchRow) throws(BenchFailure) -> RowResult {
    var runs: [RowResult.Run] = []
    for number in 1...options.runs {
      let run: RowResult.Run
      switch row.job {
      case .child(let arguments):
        let report = try runChild(arguments)
        run = RowResult.Run(
          seconds: report.report.seconds, units: report.report.units,
          maximumResidentBytes: report.report.peakBytes ?? report.outcome.maximumResidentBytes,
          report: report.report)
      case .script(let name, let arguments):
        let script = try runScript(name, arguments)
        run = RowResult.Run(
          seconds: script.report.seconds, units: script.report.units,
          maximumResidentBytes: script.report.peakBytes ?? script.outcome.maximumResidentBytes,
          report: script.report)
      case .tool(let arguments, let output, let input):
        unlink(output)
        let outcome = try runTool(arguments)
        guard let size = try? TraceFileCheck.size(of: output), size > 0 else {
          throw .verification(scenario: row.id, reason: "reactor-trace wrote no \(output)")
        }
        // wait4 cannot tell a peak below this process's own: the child ran in this
        // process's address space until it exec'd (see PeakMemory).
        let floor = PeakMemory.currentProcessBytes ?? 0
        run = RowResult.Run(
          seconds: outcome.seconds, units: row.count,
          maximumResidentBytes: outcome.maximumResidentBytes, report: nil,
          isMemoryUpperBound: outcome.maximumResidentBytes <= floor,
          outputRatio: input.flatMap { try? TraceFileCheck.size(of: $0) }.map {
            Double(size) / Double(max($0, 1))
          })
      }
      Progress.say(
        "  \(row.id) run \(number)/\(options.runs): \(Formatting.seconds(run.seconds)) s, "
          + "\(Formatting.grouped(Double(run.units) / run.seconds)) \(row.unit)/s, "
          + "max RSS \(Formatting.decimal(Double(run.maximumResidentBytes) / 1_048_576, digits: 1)) MiB"
      )
      runs.append(run)
    }
    return RowResult(row: row, runs: runs)
  }

  private func prepare(_ prerequisite: BenchRow.Prerequisite) throws(BenchFailure) {
    switch prerequisite {
    case .concatTrace(let actions, let path):
      Progress.say("preparing \(path): counter-concat, \(actions) actions")
      _ = try runChild(["trace-write", "\(actions)", path])
    case .timelineTrace(let script, let path, let increases):
      Progress.say(
        "preparing \(path): the Counter, increase every 300 ms, with reactor-trace record")
      // `increase` makes 6 events (action, effect start, loading on, change, loading off,
      // effect end) and its 500 ms effects overlap; one `decrease` (4 events) completes 10,000.
      var lines = (0..<increases).map { #"{"t": \#($0 * 300), "action": {"increase": {}}}"# }
      lines.append(#"{"t": \#(increases * 300), "action": {"decrease": {}}}"#)
      do {
        try (lines.joined(separator: "\n") + "\n").write(
          toFile: script, atomically: true, encoding: .utf8)
      } catch {
        throw .file(path: script, reason: "cannot write the script: \(error)")
      }
      _ = try runTool([
        "record", "--reactor", "ReactorExamples.CounterReactor", "--actions", script, "-o", path,
        "--meta", "limit=1000000",
      ])
      _ = try TraceFileCheck.verify(
        path: path, events: 6 * increases + 4, by: Verification(scenario: "timeline trace"))
    }
  }

  private func runChild(
    _ arguments: [String]
  ) throws(BenchFailure) -> (outcome: ChildProcess.Outcome, report: ChildReport) {
    let outcome = try ChildProcess.run(executable, ["child"] + arguments)
    let command = (["reactor-trace-bench", "child"] + arguments).joined(separator: " ")
    try Self.requireSuccess(outcome, command: command)
    guard let report = ChildReport(output: outcome.output) else {
      throw .child(command: command, reason: "reported no result")
    }
    return (outcome, report)
  }

  /// Runs `Benchmarks/live/NAME` with `arguments` and the benchmark's directory as `--bin`.
  private func runScript(
    _ name: String, _ arguments: [String]
  ) throws(BenchFailure) -> (outcome: ChildProcess.Outcome, report: ChildReport) {
    let path =
      ((#filePath as NSString).deletingLastPathComponent as NSString)
      .deletingLastPathComponent + "/live/" + name
    let directory = (executable as NSString).deletingLastPathComponent
    let full = [path, "--bin", directory] + arguments
    let command = (["python3"] + full).joined(separator: " ")
    let outcome = try ChildProcess.run("/usr/bin/env", ["python3"] + full)
    try Self.requireSuccess(outcome, command: command)
    guard let report = ChildReport(output: outcome.output) else {
      throw .child(command: command, reason: "reported no result")
    }
    return (outcome, report)
  }

  private func runTool(_ arguments: [String]) throws(BenchFailure) -> ChildProcess.Outcome {
    let outcome = try ChildProcess.run(tool, arguments)
    try Self.requireSuccess(
      outcome, command: (["reactor-trace"] + arguments).joined(separator: " "))
    return outcome
  }

  private static func requireSuccess(
    _ outcome: ChildProcess.Outcome, command: String
  ) throws(BenchFailure) {
    if let signal = outcome.signal {
      throw .child(command: command, reason: "killed by signal \(signal)")
    }
    guard outcome.exitCode == 0 else {
      throw .child(
        command: command, reason: "exited with \(outcome.exitCode ?? -1): \(outcome.output)")
    }
  }

  private static func makeTemporaryDirectory() throws(BenchFailure) -> String {
    var template = Array((NSTemporaryDirectory() + "/reactor-trace-bench.XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard let made else {
      throw .file(path: NSTemporaryDirectory(), reason: "cannot make a temporary directory")
    }
    return String(cString: made)
  }
}
