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
  @exclusivity(unchecked) private var current = Batch()
  /// The next line of `current` to return.
  @exclusivity(unchecked) private var index = 0
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
    channel = Channel(reader: reader, linesPerBatch: linesPerBatch, batchesAhead: batchesAhead)
  }

  deinit { channel.stop() }

  /// Stops the thread and waits until it has stopped; later lines read as the end.
  package func close() {
    channel.stop()
    current = Batch()
    current.end = .finished(lineNumber: lineNumber)
    index = 0
    nextWarning = 0
  }

  package func nextReplayLine() throws(TraceReadError) -> ReplayLine? {
    if index == current.lines.count {
      guard try advance() else { return nil }
    }
    let line = index
    index = line + 1
    lineNumber = current.numbers[line]
    if nextWarning < current.warnings.count { addWarnings(before: line + 1) }
    return current.lines[line]
  }

  package func lastMutation() -> TraceEvent.Mutation {
    let line = index - 1
    if !current.general.isEmpty, let mutation = current.general[line] { return mutation }
    let range = (line == 0 ? 0 : current.ends[line - 1])..<current.ends[line]
    let isRead = current.bytes.withUnsafeBytes { bytes in
      decoder.read(UnsafeRawBufferPointer(rebasing: bytes[range]), parser: &parser)
    }
    // The thread read the line the fast way, and it reads so again.
    guard isRead, case .mutation(let mutation) = decoder.line.event.kind else {
      preconditionFailure("the last mutation's line no longer reads")
    }
    return mutation
  }

  /// Takes the next batch once `current` is returned, or ends with it.
  /// - Returns: Whether there is a line to return.
  private func advance() throws(TraceReadError) -> Bool {
    while index == current.lines.count {
      addWarnings(before: index + 1)
      switch current.end {
      case .finished(let line)?:
        lineNumber = line
        return false
      case .failed(let error)?:
        throw error
      case nil:
        current = channel.exchange(current)
        index = 0
        nextWarning = 0
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
  /// `@unchecked Sendable`: a batch belongs to one thread at a time, handed over under the
  /// channel's lock.
  private final class Batch: @unchecked Sendable {
    /// How the trace ends after the batch's last line.
    enum End {
      case finished(lineNumber: Int)
      case failed(TraceReadError)
    }

    @exclusivity(unchecked) var lines: [ReplayLine] = []
    /// Each line's number.
    @exclusivity(unchecked) var numbers: [Int] = []
    /// The bytes of the mutations' lines read the fast way, one after the other.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// Where each line's bytes end in `bytes` (where the line before it ended when none).
    @exclusivity(unchecked) var ends: [Int] = []
    /// The mutations read the general way, whole, by index in `lines`.
    @exclusivity(unchecked) var general: [Int: TraceEvent.Mutation] = [:]
    /// The warnings noticed while reading, each with the index of the line it came with
    /// (`lines.count` for the end).
    @exclusivity(unchecked) var warnings: [(line: Int, warning: TraceWarning)] = []
    @exclusivity(unchecked) var end: End?

    /// Empties the batch, keeping its memory.
    func reset() {
      lines.removeAll(keepingCapacity: true)
      numbers.removeAll(keepingCapacity: true)
      bytes.removeAll(keepingCapacity: true)
      ends.removeAll(keepingCapacity: true)
      general.removeAll()
      warnings.removeAll()
      end = nil
    }

    /// Reads up to `count` lines from `reader`, or to the end or the first error.
    func fill(from reader: TraceReader, count: Int) {
      var warningCount = reader.warnings.count
      do throws(TraceReadError) {
        while lines.count < count {
          guard let line = try reader.nextReplayLine() else {
            end = .finished(lineNumber: reader.lineNumber)
            break
          }
          if reader.warnings.count != warningCount {
            note(reader.warnings[warningCount...], line: lines.count)
            warningCount = reader.warnings.count
          }
          if case .mutation = line, let mutation = reader.copyLastMutation(to: &bytes) {
            general[lines.count] = mutation
          }
          lines.append(line)
          numbers.append(reader.lineNumber)
          ends.append(bytes.count)
        }
      } catch {
        end = .failed(error)
      }
      note(reader.warnings[warningCount...], line: lines.count)
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
      var batch = Batch()
      while true {
        batch.fill(from: reader, count: linesPerBatch)
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
        batch = next ?? Batch()
        batch.reset()
      }
    }
  }
}
