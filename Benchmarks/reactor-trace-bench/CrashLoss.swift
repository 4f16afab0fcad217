import Foundation
import ReactorCore
import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Measures what a recording loses when its process is killed with SIGKILL: the crash
/// promise of each overflow policy.
///
/// A recording process (``record(policy:path:counterPath:)``) sends `increase` to the
/// counter-sync reactor as fast as it can, recorded to a file, and after each send stores how
/// many it completed in a shared memory-mapped file. The measuring process
/// (``measure(policy:kills:directory:executable:)``) starts it, kills it at a random moment
/// between 50 and 450 ms later, and reads the trace: every complete event must be readable
/// (a torn last line and a missing end line are only warnings), and the events lost are the
/// two each completed send produced minus the events the trace holds.
enum CrashLoss {
  /// Records until killed, never returning.
  /// - Parameters:
  ///   - policy: The recorder's overflow policy.
  ///   - path: The trace file.
  ///   - counterPath: The file whose first 8 bytes hold the number of completed sends.
  /// - Throws: ``BenchFailure`` when the recording or the counter file cannot start.
  @MainActor
  static func record(
    policy: TraceOverflowPolicy, path: String, counterPath: String
  ) throws(BenchFailure) -> Never {
    let descriptor = open(counterPath, O_RDWR | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0, ftruncate(descriptor, 8) == 0,
      let mapped = mmap(nil, 8, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
      mapped != MAP_FAILED
    else {
      throw .file(path: counterPath, reason: String(cString: strerror(errno)))
    }
    let completed = mapped.bindMemory(to: Int.self, capacity: 1)
    let reactor = CounterSyncReactor()
    let recorder: FileTraceRecorder<CounterSyncReactor>
    do {
      recorder = try FileTraceRecorder(
        recording: reactor, to: path, options: TraceOptions(overflow: policy))
    } catch {
      throw .file(path: path, reason: "cannot start recording: \(error)")
    }
    var sends = 0
    while true {
      reactor.send(.increase)
      sends += 1
      completed.pointee = sends
      withExtendedLifetime(recorder) {}
    }
  }

  /// What one kill lost.
  struct Loss {
    /// Events produced by completed sends and missing from the trace.
    var events: Int
    /// The time they span at the rate the trace was recorded, in milliseconds.
    var milliseconds: Double
  }

  /// Kills a recording process `kills` times and reports the largest loss.
  /// - Parameters:
  ///   - policy: The overflow policy the recordings use.
  ///   - kills: How many recordings to kill.
  ///   - directory: Where the traces and counter files go; they are removed.
  ///   - executable: This benchmark, to start as `child crash-record`.
  /// - Returns: A report whose units are the kills, with the largest loss in events and in
  ///   milliseconds.
  /// - Throws: ``BenchFailure`` when a trace is unreadable or a recording cannot start.
  static func measure(
    policy: TraceOverflowPolicy, kills: Int, directory: String, executable: String
  ) throws(BenchFailure) -> ChildReport {
    let name = policy == .wait ? "wait" : "drop"
    let verification = Verification(scenario: "crash-loss/\(name)")
    let clock = ContinuousClock()
    let start = clock.now
    var worst = Loss(events: 0, milliseconds: 0)
    for attempt in 1...kills {
      let path = "\(directory)/crash-\(name)-\(getpid())-\(attempt).trace.jsonl"
      let counterPath = "\(directory)/crash-\(name)-\(getpid())-\(attempt).count"
      defer {
        unlink(path)
        unlink(counterPath)
      }
      let pid = try ChildProcess.spawn(
        executable, ["child", "crash-record", name, path, counterPath]
      ) { actions in
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      }
      usleep(UInt32.random(in: 50_000...450_000))
      kill(pid, SIGKILL)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      let loss = try measureLoss(path: path, counterPath: counterPath, by: verification)
      Progress.say(
        "  crash-loss/\(name) kill \(attempt)/\(kills): \(loss.events) events lost "
          + "(\(Formatting.decimal(loss.milliseconds, digits: 1)) ms)")
      if loss.events > worst.events { worst = loss }
    }
    var report = ChildReport(seconds: start.duration(to: clock.now).seconds, units: kills)
    report.lost = worst.events
    report.lostMilliseconds = worst.milliseconds
    return report
  }

  private static func measureLoss(
    path: String, counterPath: String, by verification: Verification
  ) throws(BenchFailure) -> Loss {
    var completed = 0
    if let data = FileManager.default.contents(atPath: counterPath), data.count >= 8 {
      completed = data.withUnsafeBytes { $0.loadUnaligned(as: Int.self) }
    }
    let produced = 2 * completed
    guard produced > 0 else { return Loss(events: 0, milliseconds: 0) }
    var events = 0
    var lastTime = Duration.zero
    do {
      let reader = try TraceReader(path: path)
      while let event = try reader.next() {
        events += 1
        try verification.expect("the seq of event \(events)", event.sequence, equals: events)
        lastTime = event.time
      }
    } catch let error as BenchFailure {
      throw error
    } catch {
      // Killed before the writer wrote the header: everything produced is lost.
      guard case .empty = error as? TraceReadError else {
        throw .verification(
          scenario: verification.scenario, reason: "the killed recording is unreadable: \(error)")
      }
    }
    let lost = max(0, produced - events)
    let seconds = lastTime.seconds
    let rate = seconds > 0 ? Double(events) / seconds : 0
    return Loss(events: lost, milliseconds: rate > 0 ? 1000 * Double(lost) / rate : 0)
  }
}
