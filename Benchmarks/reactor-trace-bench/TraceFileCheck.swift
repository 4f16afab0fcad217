import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks a trace file without holding it in memory: one line per event between the header
/// and the end line, and an end line that counts every event and drops none.
enum TraceFileCheck {
  /// What one pass over a file found.
  struct Summary {
    /// The file's size in bytes.
    var bytes = 0
    /// The number of newline-terminated lines.
    var lines = 0
    /// The bytes of the last line, without its newline.
    var lastLine: [UInt8] = []
  }

  /// The size of the file at `path`, in bytes.
  static func size(of path: String) throws(BenchFailure) -> Int {
    var status = stat()
    guard stat(path, &status) == 0 else {
      throw .file(path: path, reason: "cannot stat: \(String(cString: strerror(errno)))")
    }
    return Int(status.st_size)
  }

  /// Reads the file at `path` in chunks, counting its lines and keeping its last one.
  static func summarize(path: String) throws(BenchFailure) -> Summary {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      throw .file(path: path, reason: "cannot open: \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var summary = Summary()
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    var current: [UInt8] = []
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .file(path: path, reason: "cannot read: \(String(cString: strerror(errno)))")
      }
      if count == 0 { break }
      summary.bytes += count
      var lineStart = 0
      for index in 0..<count where chunk[index] == UInt8(ascii: "\n") {
        summary.lines += 1
        current.append(contentsOf: chunk[lineStart..<index])
        summary.lastLine = current
        current.removeAll(keepingCapacity: true)
        lineStart = index + 1
      }
      current.append(contentsOf: chunk[lineStart..<count])
      // Only the tail of a long unterminated run matters: the last line is short.
      if current.count > 1 << 16 { current.removeFirst(current.count - (1 << 16)) }
    }
    if !current.isEmpty { summary.lastLine = current }
    return summary
  }

  /// Checks that the trace at `path` holds a header, exactly `events` event lines and an end
  /// line reporting `events` observed and none dropped.
  /// - Returns: The file's size in bytes.
  static func verify(
    path: String, events: Int, by verification: Verification
  ) throws(BenchFailure) -> Int {
    let summary = try summarize(path: path)
    try verification.expect("lines in the trace file", summary.lines, equals: events + 2)
    let end: JSONValue
    do {
      end = try JSONValue(parsing: summary.lastLine)
    } catch {
      throw .verification(scenario: verification.scenario, reason: "the end line is not JSON")
    }
    try verification.expect("the last line's kind", end["kind"]?.stringValue, equals: "end")
    try verification.expect("the end line's seq", end["seq"]?.intValue, equals: events + 1)
    try verification.expect("the end line's observed", end["observed"]?.intValue, equals: events)
    try verification.expect("the end line's dropped", end["dropped"]?.intValue, equals: 0)
    return summary.bytes
  }

  /// Checks that the trace at `path`, recorded with the drop policy, holds every event it
  /// did not drop: its events and the sums of its gaps make `events`, and its end line counts
  /// `dropped`.
  /// - Returns: The file's size in bytes.
  static func verify(
    path: String, events: Int, dropped: Int, by verification: Verification
  ) throws(BenchFailure) -> Int {
    var kept = 0
    var gaps = 0
    var ended: TraceEvent.End?
    do {
      let reader = try TraceReader(path: path, verifyingStates: false)
      while let event = try reader.next() {
        switch event.kind {
        case .gap(let gap): gaps += gap.droppedEvents
        case .end(let end): ended = end
        default: kept += 1
        }
      }
    } catch {
      throw .file(path: path, reason: "cannot read the trace: \(error)")
    }
    try verification.expect("events dropped in gaps", gaps, equals: dropped)
    try verification.expect("events kept and dropped", kept + gaps, equals: events)
    try verification.expect("the end line's dropped count", ended?.droppedEvents, equals: dropped)
    return try size(of: path)
  }
}
