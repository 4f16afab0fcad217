import ReactorTracing

extension TraceIndex {
  /// The record of the `number`th event (from 0).
  func record(_ number: Int) -> IndexRecord? {
    guard number >= 0, number < eventCount else { return nil }
    let bytes = records.read(at: number * IndexRecord.stride, count: IndexRecord.stride)
    guard bytes.count == IndexRecord.stride else { return nil }
    return bytes.withUnsafeBytes { $0.loadUnaligned(as: IndexRecord.self) }
  }

  /// Which text of the records ``forEachRecord(from:reading:_:)`` reads with them.
  enum RecordText {
    /// Labels and notes.
    case labels
    /// A mutation's changed paths.
    case paths
  }

  /// Calls `body` with every record from `start` on, in batches, until it returns `false`.
  ///
  /// With `text`, each batch's labels or changed paths are read in one go too, and `body` gets them with the offset of their first byte (``bytes(_:_:_:_:)``
  /// cuts one record's out).
  func forEachRecord(
    from start: Int = 0, reading text: RecordText? = nil,
    _ body: (Int, IndexRecord, [UInt8], Int) -> Bool
  ) {
    let batch = 8192
    var number = max(0, start)
    while number < eventCount {
      let count = min(batch, eventCount - number)
      let bytes = records.read(at: number * IndexRecord.stride, count: count * IndexRecord.stride)
      let read = bytes.count / IndexRecord.stride
      guard read > 0 else { return }
      let batchRecords = bytes.withUnsafeBytes { raw in
        (0..<read).map {
          raw.loadUnaligned(fromByteOffset: $0 * IndexRecord.stride, as: IndexRecord.self)
        }
      }
      var texts: [UInt8] = []
      var base = 0
      if let text {
        var low = Int.max
        var high = 0
        for record in batchRecords {
          let ranges =
            text == .labels
            ? [(record.labelOffset, record.labelCount), (record.noteOffset, record.noteCount)]
            : [(record.pathsOffset, record.pathsCount)]
          for (offset, count) in ranges where count > 0 {
            low = min(low, Int(offset))
            high = max(high, Int(offset + count))
          }
        }
        if low < high {
          base = low
          texts = (text == .labels ? labels : changedPaths).read(at: low, count: high - low)
        }
      }
      for (offset, record) in batchRecords.enumerated()
      where !body(number + offset, record, texts, base) {
        return
      }
      number += read
    }
  }

  /// Calls `body` with every record from `start` on, in order; `body` returns `false` to
  /// stop.
  func forEachRecord(from start: Int = 0, _ body: (Int, IndexRecord) -> Bool) {
    forEachRecord(from: start, reading: nil) { number, record, _, _ in body(number, record) }
  }

  /// One record's text out of a batch's (``forEachRecord(from:reading:_:)``).
  func bytes(_ texts: [UInt8], _ base: Int, _ offset: Int64, _ count: Int64) -> ArraySlice<UInt8> {
    let start = Int(offset) - base
    guard count > 0, start >= 0, start + Int(count) <= texts.count else { return [] }
    return texts[start..<(start + Int(count))]
  }

  /// A record's label.
  func label(of record: IndexRecord) -> String {
    String(
      decoding: labels.read(at: Int(record.labelOffset), count: Int(record.labelCount)),
      as: UTF8.self)
  }

  /// A record's note (a stream's name), `nil` when it has none.
  func note(of record: IndexRecord) -> String? {
    guard record.noteCount > 0 else { return nil }
    return String(
      decoding: labels.read(at: Int(record.noteOffset), count: Int(record.noteCount)),
      as: UTF8.self)
  }

  /// The number of the record with `seq` `sequence`, by binary search (`seq` grows along the
  /// file), or `nil`.
  func recordNumber(ofSequence sequence: Int) -> Int? {
    var low = 0
    var high = eventCount - 1
    while low <= high {
      let middle = (low + high) / 2
      guard let record = record(middle) else { return nil }
      if record.sequence == Int64(sequence) { return middle }
      if record.sequence < Int64(sequence) { low = middle + 1 } else { high = middle - 1 }
    }
    return nil
  }

  /// The number of the first record whose `seq` is at least `sequence` (``eventCount`` when
  /// none is), by binary search.
  func firstRecordNumber(atOrAfter sequence: Int) -> Int {
    var low = 0
    var high = eventCount
    while low < high {
      let middle = (low + high) / 2
      guard let record = record(middle) else { return eventCount }
      if record.sequence < Int64(sequence) { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// `seq` from the first to the last event, for an error.
  var sequenceRange: String {
    guard let first = record(0), let last = record(eventCount - 1) else {
      return "the trace has no events"
    }
    return "the trace's events have seq \(first.sequence) to \(last.sequence)"
  }

  /// The reactor an argument names: an id, a name given by the recorder, or a type (with or
  /// without its module) when one reactor has it.
  func reactorID(_ argument: String) throws(QueryError) -> Int {
    if let id = Int(argument), reactors[id] != nil { return id }
    let matches = reactors.filter { id, info in
      info.name == argument || info.type == argument
        || ReactorIntroduction.shortTypeName(info.type) == argument
    }.keys.sorted()
    if matches.count == 1 { return matches[0] }
    let known = reactors.keys.sorted().prefix(20).map { "\($0) (\(reactors[$0]!.title))" }
    if matches.count > 1 {
      throw .invalidArgument(
        name: "reactor",
        reason:
          "'\(argument)' names \(matches.count) reactors (\(matches.prefix(10).map(String.init).joined(separator: ", "))); give one's id"
      )
    }
    throw .noSuchReactor(
      "'\(argument)'", known: "its reactors: " + known.joined(separator: ", "))
  }

  /// The reactors of a type matching an argument, for diagrams and filters.
  func reactorIDs(matching argument: String?) throws(QueryError) -> Set<Int>? {
    guard let argument else { return nil }
    if let id = Int(argument) {
      guard reactors[id] != nil else { return [try reactorID(argument)] }
      return [id]
    }
    let matches = Set(
      reactors.filter { _, info in
        info.name == argument || info.type == argument
          || ReactorIntroduction.shortTypeName(info.type) == argument
      }.keys)
    guard !matches.isEmpty else { return [try reactorID(argument)] }
    return matches
  }

  /// The name a reactor goes by in answers: `reactor 2 (TaskListReactor 'list')`, or the
  /// type alone when the file holds one reactor (a trace, or a session of one).
  func reactorTitle(_ id: Int) -> String {
    guard let info = reactors[id] else { return "reactor \(id)" }
    return reactors.count == 1 ? info.title : "reactor \(id) (\(info.title))"
  }
}
