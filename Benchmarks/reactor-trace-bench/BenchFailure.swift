/// Why the benchmark, or one of its measurements, failed.
enum BenchFailure: Error, CustomStringConvertible {
  /// The command line could not be understood.
  case usage(String)
  /// A scenario finished with a result other than the one it must produce.
  case verification(scenario: String, reason: String)
  /// A child process could not be started, failed, or reported nothing usable.
  case child(command: String, reason: String)
  /// A file could not be created, read or removed.
  case file(path: String, reason: String)
  /// A tool the benchmark runs is not built.
  case missingTool(path: String, hint: String)
}

extension BenchFailure {
  var description: String {
    switch self {
    case .usage(let message):
      "usage: \(message)"
    case .verification(let scenario, let reason):
      "\(scenario): verification failed: \(reason)"
    case .child(let command, let reason):
      "\(command): \(reason)"
    case .file(let path, let reason):
      "\(path): \(reason)"
    case .missingTool(let path, let hint):
      "\(path) does not exist. \(hint)"
    }
  }
}

extension BenchFailure {
  /// Whether the command line was at fault (exit code 64) rather than a run (exit code 1).
  var isUsage: Bool {
    if case .usage = self { return true }
    return false
  }
}
