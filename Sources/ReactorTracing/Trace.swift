/// A whole trace in memory: its header and its events.
///
/// Recorders in memory produce one; ``TraceReader`` streams one from a file without holding
/// it, and `Trace(contentsOf:)` reads one whole for small files and tests.
public struct Trace: Hashable, Sendable {
  /// The first line.
  public var header: TraceHeader
  /// The events, in order.
  public var events: [TraceEvent]
  /// What the reader noticed without failing: a torn last line, a missing end line.
  public var warnings: [TraceWarning]

  /// A trace.
  public init(header: TraceHeader, events: [TraceEvent], warnings: [TraceWarning] = []) {
    self.header = header
    self.events = events
    self.warnings = warnings
  }

  /// Reads a whole trace file.
  /// - Throws: ``TraceReadError`` for a file that cannot be read, is not a trace, or has a
  ///   malformed line.
  public init(contentsOf path: String) throws(TraceReadError) {
    let reader = try TraceReader(path: path)
    var events: [TraceEvent] = []
    while let event = try reader.next() { events.append(event) }
    self.init(header: reader.header, events: events, warnings: reader.warnings)
  }

  /// Reads a whole trace from its bytes.
  /// - Throws: ``TraceReadError`` as ``init(contentsOf:)`` does.
  public init(bytes: [UInt8]) throws(TraceReadError) {
    let reader = try TraceReader(bytes: bytes)
    var events: [TraceEvent] = []
    while let event = try reader.next() { events.append(event) }
    self.init(header: reader.header, events: events, warnings: reader.warnings)
  }

  /// The trace as JSON Lines: the header line, then one line per event, each ending in a
  /// newline.
  public var serialized: [UInt8] {
    var lines = LineWriter()
    lines.bytes = header.serializedLine
    lines.bytes.append(UInt8(ascii: "\n"))
    for event in events { lines.appendLine(event) }
    return lines.bytes
  }

  /// Writes the trace to a file atomically.
  /// - Throws: ``AtomicFileError`` when the file cannot be written; nothing is left behind.
  public func write(to path: String) throws(AtomicFileError) {
    try AtomicFile.write(serialized, to: path)
  }
}
