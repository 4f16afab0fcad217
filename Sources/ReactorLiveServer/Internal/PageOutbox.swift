import Synchronization

/// What waits to be sent to one page's socket, bounded in bytes.
///
/// The store puts messages in without waiting; the socket takes them one at a time. When a
/// page falls so far behind that its backlog would pass the budget, the outbox closes: the
/// socket ends, and the page connects again and gets the stream's history from the file.
/// `Mutex` guards the queue; the one waiting taker is resumed outside it.
final class PageOutbox: Sendable {
  private struct Queue {
    var messages: [String] = []
    var head = 0
    var bytes = 0
    var isClosed = false
    var taker: CheckedContinuation<String?, Never>?
  }

  private let budget: Int
  private let queue = Mutex(Queue())

  init(budget: Int) {
    self.budget = budget
  }

  /// Queues a message; returns `false` (and closes) when it would pass the budget.
  @discardableResult
  func send(_ message: String) -> Bool {
    let (taker, accepted): (CheckedContinuation<String?, Never>?, Bool) = queue.withLock {
      queue in
      guard !queue.isClosed else { return (nil, false) }
      if let taker = queue.taker {
        queue.taker = nil
        return (taker, true)
      }
      guard queue.bytes + message.utf8.count <= budget else {
        queue.isClosed = true
        return (nil, false)
      }
      queue.messages.append(message)
      queue.bytes += message.utf8.count
      return (nil, true)
    }
    taker?.resume(returning: message)
    return accepted
  }

  /// Ends the outbox: the taker gets what is queued, then `nil`.
  func close() {
    let taker = queue.withLock { queue in
      queue.isClosed = true
      let taker = queue.taker
      queue.taker = nil
      return taker
    }
    taker?.resume(returning: nil)
  }

  /// The next message, waiting for one; `nil` once closed and empty, or cancelled.
  func next() async -> String? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
        let message: String?? = queue.withLock { queue in
          if queue.head < queue.messages.count {
            let message = queue.messages[queue.head]
            queue.head += 1
            queue.bytes -= message.utf8.count
            if queue.head == queue.messages.count {
              queue.messages.removeAll(keepingCapacity: true)
              queue.head = 0
            }
            return .some(message)
          }
          if queue.isClosed || Task.isCancelled { return .some(nil) }
          queue.taker = continuation
          return .none
        }
        if let message { continuation.resume(returning: message) }
      }
    } onCancel: {
      close()
    }
  }
}
