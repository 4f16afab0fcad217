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
/// The file is a trace after every batch: a batch is written with one `write` before it is
/// acknowledged, as a file recorder flushes, and the stream's counters advance only once the
/// write succeeded; a failed write (a full disk, a quota, a file-size limit) is cut back off
/// the file, so what is acknowledged is exactly what is on disk. The file is created with
/// the first batch that is taken (a refused first batch leaves none), never through a
/// symbolic link, and is open only while a batch is written or a piece read: a server keeps
/// no descriptor per stream. A torn last line left by a crash is cut off when the stream is
/// opened again. Owned by ``LiveStreamStore``.
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
  /// Bytes in the file (0 until the first batch is taken: then the file does not exist).
  private(set) var length: Int

  /// A new stream whose file is created with its first batch.
  init(id: String, directory: String, headerLine: [UInt8]) throws(StreamFailure) {
    self.id = id
    path = directory + "/" + id + ".trace.jsonl"
    let (reactor, app) = try Self.describe(headerLine)
    self.reactor = reactor
    self.app = app
    header = headerLine
    nextSequence = 1
    length = 0
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
    // A torn last line (a crash mid-write) or lines out of sequence are cut off: the app
    // sends them again from the stream's end.
    if kept < bytes.count {
      let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
      guard descriptor >= 0 else { throw StreamFailure(Self.errorText()) }
      defer { _ = close(descriptor) }
      guard ftruncate(descriptor, off_t(kept)) == 0 else { throw StreamFailure(Self.errorText()) }
    }
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
    var next = nextSequence
    var ended = hasEnded
    for line in lines {
      guard let sequence = LiveProtocol.sequence(ofLine: line.dropLast()), sequence == expected
      else {
        throw StreamFailure("line \(expected - from + 1) of the batch is not event \(expected)")
      }
      expected += 1
      // Held already: sent again after an acknowledgement was lost.
      if sequence < next { continue }
      let isEnd: Bool
      do {
        let value = try JSONValue(parsing: line.dropLast())
        guard value.objectValue != nil else {
          throw StreamFailure("event \(sequence) is no object")
        }
        isEnd = value["kind"]?.stringValue == "end"
        if let member = ShownLabels.member(of: value) { shown.append(member) }
      } catch let failure as StreamFailure {
        throw failure
      } catch {
        throw StreamFailure("event \(sequence) is not JSON: \(error)")
      }
      guard !ended else { throw StreamFailure("event \(sequence) follows the end line") }
      stored.append(contentsOf: line)
      next = sequence + 1
      if isEnd { ended = true }
    }
    // The first batch taken creates the file with the header; the counters move only once
    // the bytes are on disk.
    let bytes = length == 0 ? header + stored : stored
    if !bytes.isEmpty { try append(bytes) }
    nextSequence = next
    hasEnded = ended
    return Outcome(stored: stored, shown: shown, isHole: false)
  }

  /// Whether `line` is this stream's header.
  func hasHeader(_ line: ArraySlice<UInt8>) -> Bool { header[...] == line }

  /// The file's bytes now, from `offset`, at most `count`.
  func contents(from offset: Int, count: Int) -> [UInt8] {
    guard offset < length else { return [] }
    let reader = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard reader >= 0 else { return [] }
    defer { _ = close(reader) }
    var buffer = [UInt8](repeating: 0, count: min(count, length - offset))
    let read = buffer.withUnsafeMutableBytes {
      pread(reader, $0.baseAddress, $0.count, off_t(offset))
    }
    return read > 0 ? Array(buffer[..<read]) : []
  }

  /// Appends `bytes` with one `write` (creating the file, never through a link, when it is
  /// the first batch), or cuts the file back to its length and throws.
  private func append(_ bytes: [UInt8]) throws(StreamFailure) {
    let creating = length == 0
    let flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | (creating ? O_CREAT | O_EXCL : 0)
    let descriptor = open(path, flags, 0o600)
    guard descriptor >= 0 else {
      // A file or link in the way is refused; anything else is the disk's (sent again).
      let isInTheWay = errno == EEXIST || errno == ELOOP
      throw StreamFailure("opening \(path) failed: \(Self.errorText())", isStorage: !isInTheWay)
    }
    defer { _ = close(descriptor) }
    let ok = bytes.withUnsafeBytes { POSIXIO.write($0, to: descriptor) }
    guard ok else {
      let reason = Self.errorText()
      if creating {
        _ = unlink(path)
      } else {
        _ = ftruncate(descriptor, off_t(length))
      }
      throw StreamFailure("writing \(path) failed: \(reason)", isStorage: true)
    }
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
    let reader = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard reader >= 0 else { throw StreamFailure(errorText()) }
    defer { _ = close(reader) }
    guard let bytes = POSIXIO.readToEnd(reader) else { throw StreamFailure(errorText()) }
    return bytes
  }

  private static func errorText() -> String { String(cString: strerror(errno)) }
}
