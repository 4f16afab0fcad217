import ReactorTracing

/// What commands ask of an input before reading it.
enum SessionReplayRun {
  /// Whether `path` is a session: its first line declares format 2.x.
  static func isSession(_ path: String) -> Bool {
    guard let reader = try? SessionReader(path: path, verifyingStates: false) else {
      return false
    }
    return reader.header.version.major == SessionHeader.currentVersion.major
  }
}
