import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `reactor-trace` (the replays and diagrams of the registered reactors) in a process of
/// its own: a reactor that traps ends that process, not the server.
struct CommandRunner: Sendable {
  /// The executable.
  let executable: String
  /// How long a run may take before it is stopped, unless a run says otherwise.
  var timeLimit: Duration = .seconds(600)

  /// What a run printed and how it ended.
  struct Outcome {
    var status: Int32
    var output: String
    var errors: String
  }

  /// Runs the executable with `arguments`, its output and errors kept in temporary files,
  /// stopped (`SIGKILL`) after `timeLimit` (``timeLimit`` by default).
  func run(_ arguments: [String], timeLimit: Duration? = nil) throws(QueryError) -> Outcome {
    let timeLimit = timeLimit ?? self.timeLimit
    guard access(executable, X_OK) == 0 else {
      throw .commandFailed(
        "replays and diagrams run \(executable), which is not there: build it next to "
          + "reactor-trace-mcp (swift build --product reactor-trace), or pass --reactor-trace")
    }
    guard let output = tmpfile(), let errors = tmpfile() else {
      throw .commandFailed("no temporary file for reactor-trace's output")
    }
    defer {
      fclose(output)
      fclose(errors)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, fileno(output), 1)
    posix_spawn_file_actions_adddup2(&actions, fileno(errors), 2)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    // A group of its own, so that a run stopped at its time limit takes its workers (shrink's)
    // with it.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    guard spawned == 0 else {
      throw .commandFailed("cannot run \(executable): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    let deadline = ContinuousClock.now + timeLimit
    var timedOut = false
    while true {
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid { break }
      if result < 0, errno != EINTR { break }
      if ContinuousClock.now > deadline, !timedOut {
        timedOut = true
        kill(-pid, SIGKILL)
      }
      usleep(5_000)
    }
    if timedOut {
      throw .commandFailed(
        "reactor-trace \(arguments.first ?? "") took longer than \(timeLimit); stopped")
    }
    let code: Int32 =
      status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return Outcome(status: code, output: Self.contents(output), errors: Self.contents(errors))
  }

  private static func contents(_ file: UnsafeMutablePointer<FILE>) -> String {
    let descriptor = fileno(file)
    lseek(descriptor, 0, SEEK_SET)
    let bytes = POSIXIO.readToEnd(descriptor) ?? []
    return String(decoding: bytes.prefix(4 << 20), as: UTF8.self)
  }
}
