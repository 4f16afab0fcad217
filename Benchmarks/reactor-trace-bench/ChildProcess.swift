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
  typealias FileActions = posix_spawn_file_actions_t?
  #else
  typealias FileActions = posix_spawn_file_actions_t
  #endif

  /// Runs `executable` with `arguments` and waits for it.
  /// - Throws: ``BenchFailure/child(command:reason:)`` when it cannot be started.
  static func run(_ executable: String, _ arguments: [String]) throws(BenchFailure) -> Outcome {
    let command = ([executable] + arguments).joined(separator: " ")
    var pipeEnds: [Int32] = [0, 0]
    guard openPipe(&pipeEnds) else {
      throw .child(command: command, reason: "pipe failed: \(String(cString: strerror(errno)))")
    }

    let clock = ContinuousClock()
    let start = clock.now
    let pid: pid_t
    do {
      pid = try spawn(executable, arguments, keep: pipeEnds) { actions in
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
      }
    } catch {
      close(pipeEnds[1])
      close(pipeEnds[0])
      throw error
    }
    close(pipeEnds[1])

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

  /// Opens a pipe whose ends no other child inherits (close-on-exec): a child started
  /// meanwhile by another thread would otherwise hold its write end open, and reading the
  /// pipe to its end would wait for that child too.
  /// - Returns: Whether it opened; `errno` says why not.
  static func openPipe(_ ends: inout [Int32]) -> Bool {
    guard pipe(&ends) == 0 else { return false }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return true
  }

  /// Starts `executable` with `arguments` in this process's environment, without waiting.
  ///
  /// The child inherits standard input, output and error and the descriptors in `keep`, and
  /// no other: a test process holds other tests' pipes and sockets (Foundation's `Pipe` is
  /// not close-on-exec), and a long-lived child holding a pipe's write end would keep its
  /// reader from ever seeing the end. Descriptors at or above the soft limit are left alone:
  /// under valgrind they are valgrind's own, which a run under callgrind must keep.
  /// - Parameters:
  ///   - executable: The program's path.
  ///   - arguments: Its arguments, after its name.
  ///   - keep: Descriptors `fileActions` uses, closed or duplicated there.
  ///   - fileActions: Sets up the child's file descriptors.
  /// - Returns: The child's process id.
  /// - Throws: ``BenchFailure/child(command:reason:)`` when it cannot be started.
  static func spawn(
    _ executable: String, _ arguments: [String], keep: [Int32] = [],
    fileActions: (inout FileActions) -> Void
  ) throws(BenchFailure) -> pid_t {
    var actions = FileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // A descriptor closed meanwhile by its owner fails its close in the child with EBADF,
    // which posix_spawn ignores for descriptors in range.
    for descriptor in inheritedDescriptors() where !keep.contains(descriptor) {
      posix_spawn_file_actions_addclose(&actions, descriptor)
    }
    fileActions(&actions)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard spawned == 0 else {
      throw .child(
        command: ([executable] + arguments).joined(separator: " "),
        reason: "cannot start: \(String(cString: strerror(spawned)))")
    }
    return pid
  }

  /// This process's open descriptors above standard error and below the soft limit (on
  /// Linux; none elsewhere, where closing one that is no longer open fails the spawn).
  private static func inheritedDescriptors() -> [Int32] {
    #if canImport(Glibc)
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    let bound = getrlimit(resource, &limit) == 0 ? Int(clamping: limit.rlim_cur) : 1024
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return names.compactMap { Int32($0) }.filter { $0 > 2 && Int($0) < bound }.sorted()
    #else
    return []
    #endif
  }
}
