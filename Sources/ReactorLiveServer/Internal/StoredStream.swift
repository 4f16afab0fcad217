import ReactorLiveRecording
import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One app's stream as the server keeps it: a trace file it appends to, and what it needs to
/// know to take the next batch.
///
/// The file is a trace after every batch (written with `write` before the batch is
/// acknowledged, as a file recorder flushes); a torn last line left by a crash is cut off
/// when the stream is opened again. Owned by ``LiveStreamStore``.
final class StoredStream {
  let id: String
  let path: String
  /// The header line, newline included.
  private(set) var header: [UInt8]
  /// The reactor the header names, or `session` for a session of many reactors.
  let reactor: String
  /// The app's name from the header's metadata (`app`), when it gives one.
  let app: String?
  /// The next sequence number the stream takes.
  private(set) var nextSequence: Int
  /// Whether the end line arrived.
  private(set) var hasEnded = false
  /// Bytes in the file.
  private(set) var length: Int
  private var descriptor: Int32

  /// Creates the stream's file with its header.
  init(id: String, directory: String, headerLine: [UInt8]) throws(StreamFailure) {
    self.id = id
    path = directory + "/" + id + ".trace.jsonl"
    let (reactor, app) = try Self.describe(headerLine)
    self.reactor = reactor
    self.app = app
    header = headerLine
    nextSequence = 1
    descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
    length = 0
    guard descriptor >= 0 else { throw StreamFailure(Self.errorText()) }
    try write(headerLine)
  }

  /// Opens a stream kept by an earlier run, cutting off a torn last line.
  init(resuming path: String, id: String) throws(StreamFailure) {
    self.id = id
    self.path = path
    let bytes: [UInt8]
    do { bytes = try Self.read(path) } catch { throw error }
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
      lines.append(bytes[start...newline])
      start = newline + 1
    }
    guard let first = lines.first else { throw StreamFailure("no header line") }
    header = Array(first)
    (reactor, app) = try Self.describe(header)
    var sequence = 0
    var kept = first.count
    for line in lines.dropFirst() {
      guard LiveProtocol.sequence(ofLine: line.dropLast()) == sequence + 1 else { break }
      sequence += 1
      kept += line.count
      hasEnded = (try? JSONValue(parsing: line.dropLast()))?["kind"]?.stringValue == "end"
    }
    nextSequence = sequence + 1
    length = kept
    descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
    guard descriptor >= 0 else { throw StreamFailure(Self.errorText()) }
    // A torn last line (a crash mid-write) or lines out of sequence are cut off: the app
    // sends them again from the stream's end.
    if kept < bytes.count, ftruncate(descriptor, off_t(kept)) != 0 {
      throw StreamFailure(Self.errorText())
    }
  }

  deinit {
    if descriptor >= 0 { _ = close(descriptor) }
  }

  /// What a batch did: the lines it stored, their labels as a page shows them
  /// (``ShownLabels``), and where the stream now stands.
  struct Outcome {
    var stored: [UInt8]
    var shown: [(String, JSONValue)] = []
    var isHole: Bool
  }

  /// Takes a batch whose event lines start at `from`: stores the ones the stream lacks, skips
  /// the ones it holds, and reports a hole when the batch starts after its end.
  func receive(_ lines: [ArraySlice<UInt8>], from: Int) throws(StreamFailure) -> Outcome {
    guard from <= nextSequence else { return Outcome(stored: [], isHole: true) }
    var stored: [UInt8] = []
    var shown: [(String, JSONValue)] = []
    var expected = from
    var lastKind = false
    for line in lines {
      guard let sequence = LiveProtocol.sequence(ofLine: line.dropLast()), sequence == expected
      else {
        throw StreamFailure("line \(expected - from + 1) of the batch is not event \(expected)")
      }
      expected += 1
      // Held already: sent again after an acknowledgement was lost.
      if sequence < nextSequence { continue }
      do {
        let value = try JSONValue(parsing: line.dropLast())
        guard value.objectValue != nil else {
          throw StreamFailure("event \(sequence) is no object")
        }
        lastKind = value["kind"]?.stringValue == "end"
        if let member = ShownLabels.member(of: value) { shown.append(member) }
      } catch let failure as StreamFailure {
        throw failure
      } catch {
        throw StreamFailure("event \(sequence) is not JSON: \(error)")
      }
      guard !hasEnded else { throw StreamFailure("event \(sequence) follows the end line") }
      stored.append(contentsOf: line)
      nextSequence = sequence + 1
      if lastKind { hasEnded = true }
    }
    if !stored.isEmpty { try write(stored) }
    return Outcome(stored: stored, shown: shown, isHole: false)
  }

  /// Whether `line` is this stream's header.
  func hasHeader(_ line: ArraySlice<UInt8>) -> Bool { header[...] == line }

  /// The file's bytes now, from `offset`, at most `count`.
  func contents(from offset: Int, count: Int) -> [UInt8] {
    guard offset < length else { return [] }
    let reader = open(path, O_RDONLY | O_CLOEXEC)
    guard reader >= 0 else { return [] }
    defer { _ = close(reader) }
    var buffer = [UInt8](repeating: 0, count: min(count, length - offset))
    let read = buffer.withUnsafeMutableBytes {
      pread(reader, $0.baseAddress, $0.count, off_t(offset))
    }
    return read > 0 ? Array(buffer[..<read]) : []
  }

  private func write(_ bytes: [UInt8]) throws(StreamFailure) {
    let ok = bytes.withUnsafeBytes { POSIXIO.write($0, to: descriptor) }
    guard ok else { throw StreamFailure("writing \(path) failed: \(Self.errorText())") }
    length += bytes.count
  }

  /// The header's reactor (`session` for a session of many reactors, format 2.x) and app,
  /// or why it is neither a trace's nor a session's header.
  private static func describe(_ line: [UInt8]) throws(StreamFailure) -> (String, String?) {
    do {
      let reader = try SessionReader(bytes: line, name: "header", verifyingStates: false)
      guard !reader.header.isTraceOfOneReactor else {
        let trace = try TraceReader(bytes: line, name: "header", verifyingStates: false)
        return (trace.header.reactor, trace.header.metadata["app"])
      }
      return ("session", reader.header.metadata["app"])
    } catch {
      throw StreamFailure(
        "the first line is not a trace's or a session's header: \(error.description)")
    }
  }

  private static func read(_ path: String) throws(StreamFailure) -> [UInt8] {
    let reader = open(path, O_RDONLY | O_CLOEXEC)
    guard reader >= 0 else { throw StreamFailure(errorText()) }
    defer { _ = close(reader) }
    guard let bytes = POSIXIO.readToEnd(reader) else { throw StreamFailure(errorText()) }
    return bytes
  }

  private static func errorText() -> String { String(cString: strerror(errno)) }
}
