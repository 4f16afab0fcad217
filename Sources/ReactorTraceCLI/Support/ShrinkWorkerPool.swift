import Foundation
import ReactorScript
import ReactorShrinking
import ReactorTracing
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `shrink`'s candidates in worker processes: the same `reactor-trace` binary, as
/// `reactor-trace shrink-worker`, one candidate at a time each, as many at once as there are
/// workers.
///
/// A process holds one virtual clock at a time (scripts run on the main serial executor),
/// so parallel runs need processes; and a trap of the reactor's code ends the process it
/// runs in, so a worker contains it: it publishes, before each step, the report a trap
/// writes (`{"trap": step}`), and is started again for the next candidate.
final class ShrinkWorkerPool: ShrinkRunner, Sendable {
  /// The worker processes: one slot per concurrent run.
  let parallelism: Int
  private let executable: String
  private let arguments: [String]
  private let slots: [Slot]
  private let scratch: String

  /// A pool of `count` workers started (when first needed) as `executable arguments…`.
  init(count: Int, executable: String, arguments: [String]) {
    parallelism = max(1, count)
    self.executable = executable
    self.arguments = arguments
    slots = (0..<max(1, count)).map { _ in Slot() }
    scratch = NSTemporaryDirectory() + "reactor-trace-shrink-\(getpid())"
    // A worker that dies leaves a broken pipe: a write fails instead of ending this process.
    signal(SIGPIPE, SIG_IGN)
  }

  deinit {
    for slot in slots { slot.worker.withLock { _ = $0?.stop() } }
    for index in slots.indices { unlink(scratch + "-\(index).stderr") }
  }

  /// Runs each script in a worker of its own, at the same time.
  func run(_ scripts: [ReactorScript]) async throws(ShrinkError) -> [ShrinkRun] {
    let results = await withTaskGroup(of: (Int, Result<ShrinkRun, ShrinkError>).self) { group in
      for (index, script) in scripts.enumerated() {
        let slot = index % parallelism
        let request = JSONValue.string(script.text).serializedString
        let count = script.steps.count
        group.addTask {
          await withCheckedContinuation { continuation in
            Thread.detachNewThread {
              continuation.resume(
                returning: (index, self.exchange(request, steps: count, slot: slot)))
            }
          }
        }
      }
      var results = [Result<ShrinkRun, ShrinkError>?](repeating: nil, count: scripts.count)
      for await (index, result) in group { results[index] = result }
      return results
    }
    var runs: [ShrinkRun] = []
    for result in results {
      switch result! {
      case .success(let run): runs.append(run)
      case .failure(let error): throw error
      }
    }
    return runs
  }

  /// Sends one candidate to the worker in `slot` (starting it first if needed) and reads
  /// what it gave; a worker that ended in a trap gives the trap.
  private func exchange(
    _ request: String, steps: Int, slot: Int
  ) -> Result<ShrinkRun, ShrinkError> {
    slots[slot].worker.withLock { worker -> Result<ShrinkRun, ShrinkError> in
      let errorPath = scratch + "-\(slot).stderr"
      if worker == nil {
        do {
          worker = try Worker(executable: executable, arguments: arguments, errorPath: errorPath)
        } catch {
          return .failure(.runnerFailed("cannot start \(executable) shrink-worker: \(error)"))
        }
      }
      guard let current = worker else { return .failure(.runnerFailed("no worker")) }
      let line = current.exchange(request)
      if let line, let run = Self.run(from: line, steps: steps) {
        if case .object(let object)? = try? JSONValue(parsing: line), object["trap"] != nil {
          current.stop()
          worker = nil
          var run = run
          run.detail = Self.trapMessage(errorPath) ?? run.detail
          return .success(run)
        }
        return .success(run)
      }
      // The worker ended without a word: a crash that is no trap, or it could not start.
      let status = current.stop()
      worker = nil
      let message = Self.trapMessage(errorPath) ?? "it ended with status \(status)"
      guard line == nil else {
        return .failure(.runnerFailed("the worker answered \(TerminalText.quoted(line ?? ""))"))
      }
      return .success(
        ShrinkRun(
          isMet: false, stepsRun: steps, detail: "the run crashed: \(message)", failed: true))
    }
  }

  /// A worker's answer as a run: `{"met": true, "run": 4, "detail": "…"}`, or the report of a
  /// trap, `{"trap": 4}`.
  private static func run(from line: String, steps: Int) -> ShrinkRun? {
    guard case .object(let object)? = try? JSONValue(parsing: line) else { return nil }
    if case .int(let step)? = object["trap"] {
      return ShrinkRun(
        isMet: true, stepsRun: min(steps, max(0, Int(clamping: step))),
        detail: "the reactor trapped")
    }
    guard case .bool(let met)? = object["met"], case .int(let run)? = object["run"] else {
      return nil
    }
    let detail: String? = if case .string(let text)? = object["detail"] { text } else { nil }
    let failed = if case .bool(true)? = object["failed"] { true } else { false }
    return ShrinkRun(
      isMet: met, stepsRun: min(steps, max(0, Int(clamping: run))), detail: detail,
      failed: failed)
  }

  /// The last `Fatal error` line a worker wrote on standard error, emptying the file.
  private static func trapMessage(_ path: String) -> String? {
    defer { truncate(path, 0) }
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
    let line = lines.last { $0.contains("Fatal error") } ?? lines.last
    return line.map { "the reactor trapped: " + TerminalText.cut(String($0), limit: 300) }
  }

  /// Where a worker process is kept between candidates.
  final class Slot: Sendable {
    /// The worker, started when first needed and after a trap.
    let worker = Mutex<Worker?>(nil)
  }

  /// One worker process and its pipes.
  final class Worker {
    private let process = Process()
    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []

    init(executable: String, arguments: [String], errorPath: String) throws {
      let stdin = Pipe()
      let stdout = Pipe()
      _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      process.standardInput = stdin
      process.standardOutput = stdout
      process.standardError = FileHandle(forWritingAtPath: errorPath)
      try process.run()
      input = stdin.fileHandleForWriting.fileDescriptor
      output = stdout.fileHandleForReading.fileDescriptor
      // Keep the descriptors open as long as the worker: the handles own them.
      handles = [stdin.fileHandleForWriting, stdout.fileHandleForReading]
    }

    private var handles: [FileHandle] = []

    /// Writes `request` and a newline, and reads one line back; `nil` when the worker ended.
    func exchange(_ request: String) -> String? {
      let bytes = Array((request + "\n").utf8)
      var offset = 0
      while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        if written <= 0 { return readLine() }
        offset += written
      }
      return readLine()
    }

    private func readLine() -> String? {
      while true {
        if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
          let line = String(decoding: buffer[..<newline], as: UTF8.self)
          buffer.removeSubrange(...newline)
          return line
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        buffer += chunk[..<count]
      }
    }

    /// Ends the worker (closing its input ends its loop) and returns its exit status.
    @discardableResult
    func stop() -> Int32 {
      try? handles.first?.close()
      handles.removeFirst(min(1, handles.count))
      process.waitUntilExit()
      return process.terminationStatus
    }
  }
}
