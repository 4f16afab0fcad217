import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to completion and reports its exit, its standard output, its peak memory
/// (maximum resident set size, from `wait4`'s resource usage) and how long it ran.
///
/// Standard error passes through to the benchmark's own, so a child's progress and failures
/// stay visible.
enum ChildProcess {
  /// A finished process.
  struct Outcome {
    /// The exit code, or `nil` if a signal ended the process.
    var exitCode: Int32?
    /// The signal that ended the process, if one did.
    var signal: Int32?
    /// What it wrote to standard output.
    var output: String
    /// Its maximum resident set size, in bytes.
    var maximumResidentBytes: Int
    /// Seconds from just before the spawn until it was reaped.
    var seconds: Double
  }

  #if canImport(Darwin)
  private typealias FileActions = posix_spawn_file_actions_t?
  #else
  private typealias FileActions = posix_spawn_file_actions_t
  #endif

  /// Runs `executable` with `arguments` and waits for it.
  /// - Throws: ``BenchFailure/child(command:reason:)`` when it cannot be started.
  static func run(_ executable: String, _ arguments: [String]) throws(BenchFailure) -> Outcome {
    let command = ([executable] + arguments).joined(separator: " ")
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else {
      throw .child(command: command, reason: "pipe failed: \(String(cString: strerror(errno)))")
    }
    var actions = FileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    posix_spawn_file_actions_addclose(&actions, pipeEnds[1])

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let environment =
      ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in environment { free(pointer) }
    }

    let clock = ContinuousClock()
    let start = clock.now
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environment)
    close(pipeEnds[1])
    guard spawned == 0 else {
      close(pipeEnds[0])
      throw .child(command: command, reason: "cannot start: \(String(cString: strerror(spawned)))")
    }

    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
      if count > 0 {
        output.append(contentsOf: buffer[..<count])
      } else if count < 0 && errno == EINTR {
        continue
      } else {
        break
      }
    }
    close(pipeEnds[0])

    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) == -1 {
      guard errno == EINTR else {
        throw .child(command: command, reason: "wait4 failed: \(String(cString: strerror(errno)))")
      }
    }
    let seconds = start.duration(to: clock.now).seconds

    #if canImport(Darwin)
    let residentBytes = Int(usage.ru_maxrss)  // bytes on Darwin
    #else
    let residentBytes = Int(usage.ru_maxrss) * 1024  // KiB on Linux
    #endif
    let signal = status & 0x7f
    return Outcome(
      exitCode: signal == 0 ? (status >> 8) & 0xff : nil, signal: signal == 0 ? nil : signal,
      output: String(decoding: output, as: UTF8.self), maximumResidentBytes: residentBytes,
      seconds: seconds)
  }
}
