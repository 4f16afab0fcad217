import ReactorTracing

extension PerfettoTrace {
  /// Trace events written as JSON as soon as they are made, waiting in order until they can
  /// go out: a document of 100,000 trace events held as value trees took ten times its own
  /// size in memory.
  ///
  /// Events are numbered from 0 across the whole document; those from ``startIndex`` on wait
  /// here. A placeholder holds the place of an event written later.
  struct PendingEvents {
    private var chunks: [[UInt8]] = []
    /// Events that go right after the one at an index, in the order inserted.
    private var following: [Int: [[UInt8]]] = [:]
    /// The index of the first event waiting.
    private(set) var startIndex = 0
    /// How many trace events have gone out.
    private(set) var writtenCount = 0

    /// The index the next event appended gets.
    var endIndex: Int { startIndex + chunks.count }
    /// How many events wait.
    var pendingCount: Int { chunks.count }

    mutating func append(_ event: JSONValue) {
      chunks.append(event.serialized)
    }

    /// Holds a place for an event written later; a place never filled is left out of the
    /// document.
    mutating func appendPlaceholder() {
      chunks.append([])
    }

    mutating func replace(at index: Int, with event: JSONValue) {
      chunks[index - startIndex] = event.serialized
    }

    /// Puts `event` after the one at `index` (and after what was put there before).
    /// - Returns: `false` when that event has gone out already.
    mutating func insert(_ event: JSONValue, after index: Int) -> Bool {
      guard index >= startIndex else { return false }
      following[index, default: []].append(event.serialized)
      return true
    }

    /// Writes the events before `limit`, each on a line of its own, and forgets them.
    mutating func write(upTo limit: Int, to output: ([UInt8]) -> Void) {
      let count = min(limit, endIndex) - startIndex
      guard count > 0 else { return }
      var bytes: [UInt8] = []
      bytes.reserveCapacity(1 << 20)
      func put(_ event: [UInt8]) {
        bytes.append(contentsOf: writtenCount == 0 ? "\n".utf8 : ",\n".utf8)
        bytes.append(contentsOf: event)
        writtenCount += 1
        if bytes.count >= 1 << 20 {
          output(bytes)
          bytes.removeAll(keepingCapacity: true)
        }
      }
      for offset in 0..<count {
        if !chunks[offset].isEmpty { put(chunks[offset]) }
        if let after = following.removeValue(forKey: startIndex + offset) {
          for event in after { put(event) }
        }
      }
      if !bytes.isEmpty { output(bytes) }
      chunks.removeFirst(count)
      startIndex += count
    }
  }
}
