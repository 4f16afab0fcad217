import Foundation

/// What a recorder and its writer thread tell each other, the same for a trace's writer
/// (``TraceFileWriter``) and a session's (``SessionFileWriter``): the lock, holding the thread
/// back in tests, requests to flush and to close with the tasks waiting on them, that the
/// queue is full, that the thread is done, and the first write failure.
///
/// Each writer guards its own queue with ``condition`` too, so that one lock covers both, and
/// its thread runs the same loop: ``waitForBatch(interval:isBatchFull:)``, take the batch,
/// ``takeFlushWaiters()``, unlock, write, resume them; ``finish()`` at the end.
///
/// `@unchecked Sendable`: every property but `condition` is guarded by `condition`.
final class WriterHandshake: @unchecked Sendable {
  /// The most encoded bytes a writer thread holds before it writes them: a batch is written
  /// in pieces of about this size, and what each piece holds leaves the queue as soon as it
  /// is written, so that the main actor produces the next events while the writer encodes
  /// the rest.
  static var chunkSize: Int { 256 << 10 }

  /// The bytes of memory a queued state is estimated to take per byte of its canonical JSON:
  /// measured with the drop policy, a queued array of small integers (8 bytes for every 2 or
  /// 3 characters) took about that with the allocator's overhead; most other states less.
  static var memoryPerStateByte: Int { 6 }

  /// The one lock of the writer and its thread.
  let condition = WriterLock()

  // Guarded by `condition`.
  /// Whether the writer was asked to write everything and close.
  private(set) var isClosing = false
  /// Whether the thread has finished: nothing will be written any more.
  private(set) var isDone = false
  /// Whether tests hold the thread back from taking what is queued.
  private var isHeld = false
  /// Whether the recorder found the queue full: the thread takes what is pending at once.
  var isWriterNeeded = false
  private var flushWaiters: [CheckedContinuation<Void, Never>] = []
  private var closeWaiters: [CheckedContinuation<Void, Never>] = []
  private var failure: TraceRecordingError?

  /// Holds the thread back from taking what is queued until ``release()``: lets tests fill
  /// the queue deterministically.
  func hold() {
    condition.lock()
    isHeld = true
    condition.unlock()
  }

  /// Lets a held thread take what is queued again.
  func release() {
    condition.lock()
    isHeld = false
    condition.broadcast()
    condition.unlock()
  }

  /// Asks the thread to write everything queued so far, and waits until it has.
  func flush() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      condition.lock()
      if isDone {
        condition.unlock()
        continuation.resume()
        return
      }
      flushWaiters.append(continuation)
      condition.broadcast()
      condition.unlock()
    }
  }

  /// Asks the thread to write everything and close the file, and waits until it has.
  /// - Returns: The first write failure, if any.
  func close() async -> TraceRecordingError? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      condition.lock()
      isClosing = true
      if isDone {
        condition.unlock()
        continuation.resume()
        return
      }
      closeWaiters.append(continuation)
      condition.broadcast()
      condition.unlock()
    }
    return recordedFailure()
  }

  private func recordedFailure() -> TraceRecordingError? {
    condition.lock()
    defer { condition.unlock() }
    return failure
  }

  /// Asks the thread to write everything and close the file, without waiting.
  func closeInBackground() {
    condition.lock()
    isClosing = true
    condition.broadcast()
    condition.unlock()
  }

  /// On the thread: locks, and waits until a batch is due, unless held.
  ///
  /// A batch is due when `isBatchFull()`, when a flush or close was asked for, when the
  /// recorder waits for room, or when `interval` has passed. Returns with the lock held.
  func waitForBatch(interval: TimeInterval, isBatchFull: () -> Bool) {
    condition.lock()
    let deadline = Date(timeIntervalSinceNow: interval)
    while !isClosing && (isHeld || !isBatchFull() && flushWaiters.isEmpty && !isWriterNeeded) {
      if isHeld {
        condition.wait()
      } else if !condition.wait(until: deadline) {
        break
      }
    }
    isWriterNeeded = false
  }

  /// On the thread, with the lock held: the tasks waiting for what was queued until now to
  /// be written, to resume once it is.
  func takeFlushWaiters() -> [CheckedContinuation<Void, Never>] {
    defer { flushWaiters = [] }
    return flushWaiters
  }

  /// Keeps the first write failure, for ``close()`` to return.
  func recordFailure(_ failure: TraceRecordingError) {
    condition.lock()
    if self.failure == nil { self.failure = failure }
    condition.unlock()
  }

  /// On the thread, at its end: marks it done and resumes every task still waiting.
  func finish() {
    condition.lock()
    isDone = true
    condition.broadcast()
    let waiters = closeWaiters + flushWaiters
    closeWaiters = []
    flushWaiters = []
    condition.unlock()
    for waiter in waiters { waiter.resume() }
  }
}
