import ArgumentParser
import Foundation
import ReactorFleet
import ReactorReplay
import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `replay` of many inputs (a corpus, for CI): every trace and session among files, folders
/// and globs replayed through today's code, in parallel over worker processes, one line per
/// input and a total, and a JUnit report when asked.
///
/// Each worker is this executable run as `replay --corpus-worker FILES…`: it replays its
/// inputs one after another through the one-input replay (``ReplayRequest``) and writes one
/// JSON line per input. A worker that dies (a reactor that traps) loses only the input it was
/// replaying, reported as crashed; the rest of its batch is replayed again by new workers.
struct CorpusReplayRequest: CommandRequest {
  /// The files, folders and globs.
  var inputs: [String]
  /// The arguments every input is replayed with (`--mode`, `--effects`, `--strict`, …).
  var options: [String]
  /// How many worker processes run at once.
  var jobs: Int
  /// Where the JUnit report goes.
  var junit: String?

  /// How an input's replay ended.
  struct Outcome: Sendable {
    /// The replay's exit code, or -1 when its worker died.
    var code: Int32
    /// What it wrote to standard output.
    var output: String
    /// What it wrote to standard error.
    var error: String
    /// How long it took, in seconds.
    var seconds: Double
  }

  /// Replays every input, prints a line each and a total, writes the JUnit report, and
  /// returns 1 if any diverged, else 2 if any could not be replayed, else 3 if any had
  /// warnings under `--strict`, else 0.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    let paths = try FleetFiles.expand(inputs, extensions: FleetFiles.traceExtensions)
    if let junit { try OutputFiles.refuse([junit], ifAnyIs: paths) }
    let started = Date()
    let clock = ContinuousClock.now
    var outcomes = [Outcome?](repeating: nil, count: paths.count)
    var printed = 0
    func flush() {
      while printed < outcomes.count, let outcome = outcomes[printed] {
        report.write(Self.line(for: paths[printed], outcome))
        printed += 1
      }
    }
    let size = max(1, min(64, paths.count / max(1, jobs * 4)))
    var queue: [[Int]] = stride(from: 0, to: paths.count, by: size).map {
      Array($0..<min($0 + size, paths.count))
    }
    queue.reverse()
    let executable = Self.executable()
    let options = self.options
    await withTaskGroup(of: ([Int], ChildProcess.Result).self) { group in
      func start() {
        guard let batch = queue.popLast() else { return }
        let child = ChildProcess(
          executable: executable,
          arguments: ["replay", "--corpus-worker"] + options + ["--"] + batch.map { paths[$0] })
        group.addTask { (batch, await child.run()) }
      }
      for _ in 0..<jobs { start() }
      while let (batch, result) = await group.next() {
        let (done, rest) = Self.outcomes(of: batch, from: result)
        for (index, outcome) in done { outcomes[index] = outcome }
        if !rest.isEmpty { queue.append(rest) }
        flush()
        start()
      }
    }
    flush()
    let all = outcomes.map { $0! }
    let diverged = all.count { $0.code == 1 }
    let unusable = all.count { $0.code != 0 && $0.code != 1 && $0.code != 3 }
    let warned = all.count { $0.code == 3 }
    var total = "\(paths.count) input\(paths.count == 1 ? "" : "s"): "
    total += "\(all.count { $0.code == 0 }) matched, \(diverged) diverged, \(unusable) unusable"
    if warned > 0 { total += ", \(warned) with warnings under --strict" }
    report.write(total)
    if let junit {
      let cases = zip(paths, all).map { path, outcome in
        JUnitReport.Case(
          name: path, className: "reactor-trace.replay", seconds: outcome.seconds,
          outcome: Self.junitOutcome(outcome))
      }
      let elapsed = ContinuousClock.now - clock
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      let file = JUnitReport(
        name: "reactor-trace replay", timestamp: started,
        hostname: ProcessInfo.processInfo.hostName, cases: cases, seconds: seconds)
      try OutputFiles.write(file.bytes, to: junit, inputs: paths)
    }
    if diverged > 0 { return .divergence }
    if unusable > 0 { return .unusableInput }
    if warned > 0 { return .strictWarnings }
    return .success
  }

  /// The line of one input: `PASS path`, `FAIL path: the divergence`, or
  /// `ERROR path: why`; one line whatever the path holds (a newline in a file name is shown
  /// as an escape, as the terminal output shows every control character, so no name can
  /// forge another input's line).
  static func line(for path: String, _ outcome: Outcome) -> String {
    let path = TerminalText.line(path)
    switch outcome.code {
    case 0: return "PASS \(path)"
    case 1: return "FAIL \(path): " + firstLine(outcome.output, orElse: outcome.error)
    default: return "ERROR \(path): " + firstLine(outcome.error, orElse: outcome.output)
    }
  }

  private static func junitOutcome(_ outcome: Outcome) -> JUnitReport.Case.Outcome {
    let details = [outcome.output, outcome.error].filter { !$0.isEmpty }.joined(separator: "\n")
    switch outcome.code {
    case 0:
      return .passed
    case 1:
      return .failure(message: firstLine(outcome.output, orElse: outcome.error), details: details)
    default:
      let type =
        outcome.code == -1 ? "crash" : outcome.code == 3 ? "warnings" : "unusable input"
      return .error(
        type: type, message: firstLine(outcome.error, orElse: outcome.output), details: details)
    }
  }

  /// The first non-empty line of `text` (of `fallback` when it has none), without the
  /// `reactor-trace: ` prefix of error lines.
  private static func firstLine(_ text: String, orElse fallback: String) -> String {
    for source in [text, fallback] {
      if let line = source.split(separator: "\n").first(where: { !$0.isEmpty }) {
        return line.hasPrefix("reactor-trace: ")
          ? String(line.dropFirst("reactor-trace: ".count)) : String(line)
      }
    }
    return "no output"
  }

  /// What a worker's batch gave: the inputs it finished, and those it did not reach
  /// because it died.
  static func outcomes(
    of batch: [Int], from result: ChildProcess.Result
  ) -> (done: [(Int, Outcome)], rest: [Int]) {
    // Standard error: a marker line before each input's own lines.
    var errors: [Int: [Substring]] = [:]
    var current: Int?
    let errorText = String(decoding: result.error, as: UTF8.self)
    for line in errorText.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix(CorpusWorker.marker) {
        current = Int(line.dropFirst(CorpusWorker.marker.count))
      } else if let current, !line.isEmpty {
        errors[current, default: []].append(line)
      }
    }
    var done: [(Int, Outcome)] = []
    var finished: Set<Int> = []
    for line in String(decoding: result.output, as: UTF8.self).split(separator: "\n") {
      guard let json = try? JSONValue(parsing: Array(line.utf8)),
        case .int(let position)? = json["index"], position >= 0, position < batch.count,
        case .int(let code)? = json["code"], let output = json["output"]?.stringValue
      else { continue }
      var seconds = 0.0
      if case .double(let value)? = json["seconds"] { seconds = value }
      let index = Int(position)
      finished.insert(index)
      done.append(
        (
          batch[index],
          Outcome(
            code: Int32(clamping: code), output: output,
            error: (errors[index] ?? []).joined(separator: "\n"), seconds: seconds)
        ))
    }
    let unfinished = batch.indices.filter { !finished.contains($0) }
    guard let crashed = unfinished.first else { return (done, []) }
    // The worker died replaying the first input it did not finish (or could not start).
    let how =
      result.isSignaled
      ? "reactor-trace: the replay crashed (signal \(result.status))"
      : "reactor-trace: the replay's process ended with code \(result.status) before it finished"
    var error = (errors[crashed] ?? []).joined(separator: "\n")
    if !errorText.contains(CorpusWorker.marker) && !errorText.isEmpty { error = errorText }
    error = error.isEmpty ? how : error + "\n" + how
    done.append((batch[crashed], Outcome(code: -1, output: "", error: error, seconds: 0)))
    return (done, unfinished.dropFirst().map { batch[$0] })
  }

  /// This executable, which the workers run.
  static func executable() -> String {
    #if os(Linux)
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if count > 0 {
      return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    #endif
    return CommandLine.arguments[0]
  }
}

/// A corpus replay's worker: replays its inputs one after another through the one-input
/// replay, each input's standard error after a marker line, one JSON line per input on
/// standard output (`{"index":0,"code":1,"output":"…","seconds":0.01}`), written as soon as
/// it is known, so that a crash loses only the input it happened in.
struct CorpusWorker: Sendable {
  /// The line that starts an input's standard error: the marker and its index.
  static let marker = "\u{1E}reactor-trace input "

  /// The inputs, already expanded.
  var inputs: [String]
  /// The one-input replay of an input.
  var request: @Sendable (String) -> ReplayRequest

  /// Replays every input.
  @MainActor
  func run() async -> ExitCode {
    for (index, path) in inputs.enumerated() {
      Self.emit("\(Self.marker)\(index)\n", to: STDERR_FILENO)
      let output = KeptOutput()
      let start = ContinuousClock.now
      let code = await request(path).execute(output: output)
      let elapsed = ContinuousClock.now - start
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      let line = JSONValue.object(
        JSONObject([
          ("index", .int(Int64(index))), ("code", .int(Int64(code))),
          ("output", .string(output.lines.joined(separator: "\n"))), ("seconds", .double(seconds)),
        ]))
      Self.emit(line.serializedString + "\n", to: STDOUT_FILENO)
    }
    return .success
  }

  /// Writes `text` at once, unbuffered.
  static func emit(_ text: String, to descriptor: Int32) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }
}

/// A report kept in memory, line by line.
final class KeptOutput: TextOutput, @unchecked Sendable {
  private let lock = NSLock()
  private var kept: [String] = []

  /// The lines written so far.
  var lines: [String] { lock.withLock { kept } }

  func write(_ line: String) {
    lock.withLock { kept.append(line) }
  }
}
