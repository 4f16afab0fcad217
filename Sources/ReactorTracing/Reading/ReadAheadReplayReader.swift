import Foundation
import ReactorJSON

/// Reads a trace's lines for a reduce replay on a thread of its own, a few batches ahead of
/// the replay, so that reading and checking lines (about half a step's work) runs beside
/// the replay's `reduce` and hashing.
///
/// ```swift
/// let lines = ReadAheadReplayReader(try TraceReader(path: path, verifyingStates: false))
/// defer { lines.close() }
/// while let line = try lines.nextReplayLine() { … }
/// ```
///
/// It gives what ``TraceReader/nextReplayLine()`` gives, line for line: the same lines, line
/// numbers and warnings, up to the line last returned, and the first error at its line once
/// every line before it was returned; it reads no further than ``batchesAhead`` batches of
/// ``linesPerBatch`` lines, so its memory does not grow with the trace. The thread starts at
/// the first line asked for; ``close()`` (or the last reference going) stops it and waits
/// for it, wherever the replay stopped.
///
/// The reader it is given is the thread's from then on: nothing else may use it.
package final class ReadAheadReplayReader: ReplayLineSource {
  /// The lines a batch holds at most, unless told otherwise.
  package static let defaultLinesPerBatch = 128
  /// The batches read and not yet taken at most, unless told otherwise.
  package static let defaultBatchesAhead = 2

  package let header: TraceHeader
  package let path: String
  // Touched by the replay's thread only, by methods that never call out while one is being
  // modified: no dynamic exclusivity checks.
  @exclusivity(unchecked) package private(set) var lineNumber = 1
  @exclusivity(unchecked) package private(set) var warnings: [TraceWarning] = []
  /// The batch being returned, line by line.
  @exclusivity(unchecked) private var current: Batch
  /// The index in `current` of the line last returned.
  @exclusivity(unchecked) private var last = 0
  /// Where the line last returned starts and ends in `current`'s bytes.
  @exclusivity(unchecked) private var lastBytes = 0..<0
  /// The next warning of `current` to add to `warnings`.
  @exclusivity(unchecked) private var nextWarning = 0
  /// Reads the last mutation's line again, whole.
  @exclusivity(unchecked) private var decoder = EventLineDecoder()
  @exclusivity(unchecked) private var parser = JSONParser()
  private let channel: Channel

  /// Reads `reader`'s lines on a thread of its own.
  /// - Parameters:
  ///   - reader: A reader positioned before the first event; the thread's from now on.
  ///   - linesPerBatch: The lines the thread hands over at a time.
  ///   - batchesAhead: The batches read and not yet taken at most.
  package init(
    _ reader: TraceReader, linesPerBatch: Int = defaultLinesPerBatch,
    batchesAhead: Int = defaultBatchesAhead
  ) {
    precondition(linesPerBatch >= 1 && batchesAhead >= 1)
    header = reader.header
    path = reader.path
    warnings = reader.warnings
    current = Batch(capacity: linesPerBatch)
    channel = Channel(reader: reader, linesPerBatch: linesPerBatch, batchesAhead: batchesAhead)
  }

  deinit { channel.stop() }

  /// Stops the thread and waits until it has stopped; later lines read as the end.
  package func close() {
    channel.stop()
    current.reset()
    current.end = .finished(lineNumber: lineNumber)
    nextWarning = 0
  }

  package func nextReplayLine() throws(TraceReadError) -> ReplayLine? {
    if current.taken == current.count {
      guard try advance() else { return nil }
    }
    let index = current.taken
    current.taken = index + 1
    // Moved out: the batch neither copies nor releases it.
    let item = (current.items + index).move()
    last = index
    lastBytes = lastBytes.upperBound..<item.end
    lineNumber = item.number
    if nextWarning < current.warnings.count { addWarnings(before: index + 1) }
    return item.line
  }

  package func lastMutation() -> TraceEvent.Mutation {
    if !current.general.isEmpty, let mutation = current.general[last] { return mutation }
    let range = lastBytes
    return current.bytes.withUnsafeBytes { bytes in
      decoder.rereadMutation(UnsafeRawBufferPointer(rebasing: bytes[range]), parser: &parser)
    }
  }

  /// Takes the next batch once `current` is returned, or ends with it.
  /// - Returns: Whether there is a line to return.
  private func advance() throws(TraceReadError) -> Bool {
    while current.taken == current.count {
      addWarnings(before: current.count + 1)
      switch current.end {
      case .finished(let line)?:
        lineNumber = line
        return false
      case .failed(let error)?:
        throw error
      case nil:
        current = channel.exchange(current)
        nextWarning = 0
        lastBytes = 0..<0
      }
    }
    return true
  }

  /// Adds the warnings noticed while reading the lines of `current` before `line`.
  private func addWarnings(before line: Int) {
    while nextWarning < current.warnings.count, current.warnings[nextWarning].line < line {
      warnings.append(current.warnings[nextWarning].warning)
      nextWarning += 1
    }
  }

  /// Lines read on the thread, handed over together.
  ///
  /// The thread moves each line into its slot, the replay moves it out: neither copies it.
  /// `@unchecked Sendable`: a batch belongs to one thread at a time, handed over under the
  /// channel's lock.
  private final class Batch: @unchecked Sendable {
    /// How the trace ends after the batch's last line.
    enum End {
      case finished(lineNumber: Int)
      case failed(TraceReadError)
    }

    /// A line, its number, and where its bytes end in `bytes` (where the line before it
    /// ended when none are kept).
    struct Item {
      var line: ReplayLine
      var number: Int
      var end: Int
    }

    let capacity: Int
    /// `capacity` slots, those in `taken..<count` holding lines.
    let items: UnsafeMutablePointer<Item>
    @exclusivity(unchecked) var count = 0
    /// The lines moved out so far, from the first.
    @exclusivity(unchecked) var taken = 0
    /// The bytes of the mutations' lines read the fast way, one after the other.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// The mutations read the general way, whole, by index.
    @exclusivity(unchecked) var general: [Int: TraceEvent.Mutation] = [:]
    /// The warnings noticed while reading, each with the index of the line it came with
    /// (`count` for the end).
    @exclusivity(unchecked) var warnings: [(line: Int, warning: TraceWarning)] = []
    @exclusivity(unchecked) var end: End?

    init(capacity: Int) {
      self.capacity = capacity
      items = .allocate(capacity: capacity)
    }

    deinit {
      (items + taken).deinitialize(count: count - taken)
      items.deallocate()
    }

    /// Empties the batch, keeping its memory.
    func reset() {
      (items + taken).deinitialize(count: count - taken)
      count = 0
      taken = 0
      bytes.removeAll(keepingCapacity: true)
      if !general.isEmpty { general.removeAll() }
      if !warnings.isEmpty { warnings.removeAll() }
      end = nil
    }

    /// Reads up to `capacity` lines from `reader`, or to the end or the first error.
    func fill(from reader: TraceReader) {
      var warningCount = reader.warnings.count
      do throws(TraceReadError) {
        while count < capacity {
          guard let line = try reader.nextReplayLine() else {
            end = .finished(lineNumber: reader.lineNumber)
            break
          }
          if reader.warnings.count != warningCount {
            note(reader.warnings[warningCount...], line: count)
            warningCount = reader.warnings.count
          }
          if case .mutation = line, let mutation = reader.copyLastMutation(to: &bytes) {
            general[count] = mutation
          }
          (items + count).initialize(
            to: Item(line: line, number: reader.lineNumber, end: bytes.count))
          count += 1
        }
      } catch {
        end = .failed(error)
      }
      note(reader.warnings[warningCount...], line: count)
    }

    private func note(_ noticed: ArraySlice<TraceWarning>, line: Int) {
      for warning in noticed { warnings.append((line, warning)) }
    }
  }

  /// The batches between the thread and the replay, and the thread's reader.
  ///
  /// `@unchecked Sendable`: `reader` is the thread's alone once it starts; everything else
  /// is guarded by `condition`.
  private final class Channel: @unchecked Sendable {
    private let condition = NSCondition()
    /// Read and not yet taken, oldest first.
    private var full: [Batch] = []
    /// Taken and handed back, to fill again.
    private var empty: [Batch] = []
    private var isStarted = false
    /// Whether the replay asked the thread to stop.
    private var isStopping = false
    /// Whether the thread is done: it touches nothing any more.
    private var isDone = false
    private var reader: TraceReader?
    private let linesPerBatch: Int
    private let batchesAhead: Int

    init(reader: TraceReader, linesPerBatch: Int, batchesAhead: Int) {
      self.reader = reader
      self.linesPerBatch = linesPerBatch
      self.batchesAhead = batchesAhead
    }

    /// Hands back a batch returned whole and takes the next one, starting the thread the
    /// first time.
    func exchange(_ returned: Batch) -> Batch {
      condition.lock()
      defer { condition.unlock() }
      if !isStarted {
        isStarted = true
        RecorderThread.start(named: "replay reader") { [self] in run() }
      }
      empty.append(returned)
      condition.broadcast()
      while full.isEmpty { condition.wait() }
      return full.removeFirst()
    }

    /// Stops the thread, if it started, and waits until it is done.
    func stop() {
      condition.lock()
      defer { condition.unlock() }
      isStopping = true
      condition.broadcast()
      if isStarted {
        while !isDone { condition.wait() }
      }
      full.removeAll()
      empty.removeAll()
      reader = nil
    }

    /// The thread: fills batches until the trace ends, fails or the replay stops.
    private func run() {
      guard let reader else { return }
      var batch = Batch(capacity: linesPerBatch)
      while true {
        batch.fill(from: reader)
        let ended = batch.end != nil
        condition.lock()
        while full.count >= batchesAhead, !isStopping { condition.wait() }
        if isStopping || ended {
          if !isStopping { full.append(batch) }
          isDone = true
          condition.broadcast()
          condition.unlock()
          return
        }
        full.append(batch)
        condition.broadcast()
        let next = empty.popLast()
        condition.unlock()
        batch = next ?? Batch(capacity: linesPerBatch)
        batch.reset()
      }
    }
  }
}
