import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TraceIndex {
  /// A reactor's state after an event, redacted.
  struct ReactorState {
    var reactor: Int
    var state: TraceHeader.State
  }

  /// The checkpoint a walk to the `number`th record starts from: the last one before it.
  func checkpointIndex(beforeRecord number: Int) -> Int {
    var low = 0
    var high = checkpoints.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if checkpoints[middle].recordCount <= number { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// Reads the events after checkpoint `index` up to the next one with a ``SessionReader``,
  /// which starts from the states the checkpoint kept; calls `body` with each event, its
  /// record's number (-1 for the lines that introduce the reactors live at the checkpoint)
  /// and the reader (its states after the event) until `body` returns `false`.
  func walk(
    fromCheckpoint index: Int,
    _ body: (SessionEvent, Int, SessionReader) throws(QueryError) -> Bool
  ) throws(QueryError) {
    let checkpoint = checkpoints[index]
    let end =
      index + 1 < checkpoints.count ? checkpoints[index + 1].fileOffset : Int(identity.size)
    var bytes: [UInt8] = []
    if checkpoint.recordCount == 0 {
      bytes = try readFile(from: 0, to: end)
    } else {
      bytes = checkpointLines.read(at: checkpoint.blobOffset, count: checkpoint.blobCount)
      bytes += try readFile(from: checkpoint.fileOffset, to: end)
    }
    let reader: SessionReader
    do {
      reader = try SessionReader(bytes: bytes, name: name)
    } catch {
      throw .unreadableTrace(path: name, reason: "\(error)")
    }
    var number = checkpoint.recordCount
    while true {
      let event: SessionEvent?
      do {
        event = try reader.next()
      } catch {
        throw .unreadableTrace(path: name, reason: "\(error)")
      }
      guard let event else { return }
      // The checkpoint's own lines re-introduce the reactors live at it: number -1.
      if checkpoint.recordCount > 0, event.sequence <= checkpoint.sequence,
        case .introduced = event.kind
      {
        guard try body(event, -1, reader) else { return }
        continue
      }
      guard number < eventCount else { return }
      guard try body(event, number, reader) else { return }
      number += 1
    }
  }

  /// Every live reactor's state after the event with `seq` `sequence` (0: before the
  /// first event, a trace's initial state), redacted.
  func states(at sequence: Int) throws(QueryError) -> (record: IndexRecord?, [ReactorState]) {
    if sequence == 0, recordNumber(ofSequence: 0) == nil {
      return (nil, [])
    }
    guard let number = recordNumber(ofSequence: sequence), let record = record(number) else {
      throw .noSuchEvent(sequence: sequence, range: sequenceRange)
    }
    var states: [ReactorState] = []
    try walk(fromCheckpoint: checkpointIndex(beforeRecord: number)) {
      event, current, reader throws(QueryError) in
      guard current >= number else { return true }
      for id in reader.liveReactors.keys.sorted() {
        if let state = reader.currentState(of: id) {
          states.append(ReactorState(reactor: id, state: redaction.state(state)))
        }
      }
      return false
    }
    return (record, states)
  }

  /// One change of the value at a state path.
  struct PathChange {
    var number: Int
    var record: IndexRecord
    var before: JSONValue?
    var after: JSONValue?
  }

  /// The mutations that changed the value at `path` (redacted values), in order, among the
  /// reactors given (all when `nil`) and the records in `range`, for which `accept` returns
  /// `true`; at most `limit`, and whether there are more.
  ///
  /// As the inspector finds them: the mutations whose diff writes the path, under it or
  /// above it, then those of them after which the value at the path differs.
  func changes(
    at path: StatePath, reactors filter: Set<Int>?, records range: Range<Int>, limit: Int,
    accept: (Int, IndexRecord) -> Bool = { _, _ in true }
  ) throws(QueryError) -> (changes: [PathChange], more: Bool) {
    let wanted = path.components.map { Array($0.utf8) }
    var found: [PathChange] = []
    var start = range.lowerBound
    // Candidates a batch at a time, then a walk of each chunk that holds some: the values
    // before and after each, following every write of the path since the checkpoint.
    while start < range.upperBound, found.count <= limit {
      var candidates: [Int] = []
      var next = range.upperBound
      forEachRecord(from: start, reading: .paths) { number, record, texts, base in
        guard number < range.upperBound else { return false }
        if record.recordKind == .mutation || record.recordKind == .jump,
          filter?.contains(Int(record.reactor)) ?? true,
          writes(bytes(texts, base, record.pathsOffset, record.pathsCount), wanted),
          accept(number, record)
        {
          candidates.append(number)
          if candidates.count > 4 * (limit + 1) {
            next = number + 1
            return false
          }
        }
        return true
      }
      start = next
      var position = 0
      while position < candidates.count, found.count <= limit {
        let first = position
        var values: [Int: JSONValue?] = [:]
        try walk(fromCheckpoint: checkpointIndex(beforeRecord: candidates[position])) {
          event, number, reader throws(QueryError) in
          if case .introduced(let introduction) = event.kind {
            values[introduction.reactor] = value(at: path, of: reader, introduction.reactor)
            return true
          }
          guard number >= 0, case .reactor(let reactor, .mutation) = event.kind,
            filter?.contains(reactor) ?? true, let record = record(number),
            writes(record, wanted)
          else { return true }
          let before = values[reactor] ?? nil
          let after = value(at: path, of: reader, reactor)
          values[reactor] = after
          guard number == candidates[position] else { return true }
          position += 1
          if before != after {
            found.append(PathChange(number: number, record: record, before: before, after: after))
          }
          return found.count <= limit && position < candidates.count
        }
        if position == first { position += 1 }
      }
    }
    var more = false
    if found.count > limit {
      found.removeLast(found.count - limit)
      more = true
    }
    return (found, more)
  }

  /// The redacted value at `path` in a reactor's state as the reader has it.
  private func value(at path: StatePath, of reader: SessionReader, _ reactor: Int) -> JSONValue? {
    guard case .json(let json)? = reader.currentState(of: reactor) else {
      return reader.currentState(of: reactor).map { _ in .string(TraceRedaction.marker) }
    }
    return path.value(in: redaction.state(json))
  }

  /// Whether a mutation's diff writes at, under or above `path` (components as bytes).
  func writes(_ record: IndexRecord, _ path: [[UInt8]]) -> Bool {
    writes(changedPaths.read(at: Int(record.pathsOffset), count: Int(record.pathsCount)), path)
  }

  /// Whether paths as the paths file holds them (``writes(_:_:)``) touch `path`.
  func writes(_ bytes: some Collection<UInt8>, _ path: [[UInt8]]) -> Bool {
    for written in bytes.split(separator: 0x1E, omittingEmptySubsequences: false).dropLast() {
      let components =
        written.isEmpty ? [] : written.split(separator: 0x1F, omittingEmptySubsequences: false)
      var overlaps = true
      for (component, wantedComponent) in zip(components, path)
      where !component.elementsEqual(wantedComponent) {
        overlaps = false
        break
      }
      if overlaps { return true }
    }
    return false
  }

  /// Bytes of the trace file from `start` to `end`.
  private func readFile(from start: Int, to end: Int) throws(QueryError) -> [UInt8] {
    guard FileIdentity(path: path) == identity else {
      throw .unreadableTrace(path: name, reason: "the file changed while it was read; ask again")
    }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      throw .unreadableTrace(path: name, reason: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    let count = max(0, end - start)
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let read = bytes.withUnsafeMutableBytes { buffer in
        POSIXIO.read(
          descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]),
          at: start + done)
      }
      if read <= 0 { break }
      done += read
    }
    return Array(bytes[..<done])
  }
}
