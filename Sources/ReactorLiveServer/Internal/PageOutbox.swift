import Synchronization

/// What waits to be sent to one page's socket: a few control messages (the list of streams,
/// notices), bounded in bytes, and a flag saying the watched stream has lines the page has
/// not been sent yet.
///
/// The lines themselves wait in the stream's file, not here: the socket asks the store for
/// the next piece only when it has sent the previous one, so a page gets history and new
/// lines at its own pace and holds at most one piece. When the control messages would pass
/// the budget the outbox closes and the page is dropped (it reconnects and gets the history
/// again). `Mutex` guards the queue; the one waiting taker is resumed outside it.
final class PageOutbox: Sendable {
  /// What the socket sends next.
  enum Item: Sendable, Equatable {
    /// A control message, as is.
    case message(String)
    /// The next piece of the watched stream, which the store reads when asked.
    case lines
  }

  private struct Queue {
    var messages: [String] = []
    var head = 0
    var bytes = 0
    var hasLines = false
    var isClosed = false
    var taker: CheckedContinuation<Item?, Never>?
  }

  private let budget: Int
  private let queue = Mutex(Queue())

  init(budget: Int) {
    self.budget = budget
  }

  /// Queues a control message; returns `false` (and closes) when it would pass the budget.
  @discardableResult
  func send(_ message: String) -> Bool {
    let (taker, accepted): (CheckedContinuation<Item?, Never>?, Bool) = queue.withLock {
      queue in
      guard !queue.isClosed else { return (nil, false) }
      if let taker = queue.taker {
        queue.taker = nil
        return (taker, true)
      }
      guard queue.bytes + message.utf8.count <= budget else {
        queue.isClosed = true
        queue.messages = []
        queue.head = 0
        queue.bytes = 0
        return (nil, false)
      }
      queue.messages.append(message)
      queue.bytes += message.utf8.count
      return (nil, true)
    }
    taker?.resume(returning: .message(message))
    return accepted
  }

  /// Says the watched stream has lines the page lacks.
  func notify() {
    let taker: CheckedContinuation<Item?, Never>? = queue.withLock { queue in
      guard !queue.isClosed else { return nil }
      if let taker = queue.taker {
        queue.taker = nil
        return taker
      }
      queue.hasLines = true
      return nil
    }
    taker?.resume(returning: .lines)
  }

  /// Ends the outbox: the taker gets `nil`, and so does every later call of ``next()``.
  func close() {
    let taker = queue.withLock { queue in
      queue.isClosed = true
      queue.messages = []
      queue.head = 0
      queue.bytes = 0
      let taker = queue.taker
      queue.taker = nil
      return taker
    }
    taker?.resume(returning: nil)
  }

  /// Whether the outbox closed.
  var isClosed: Bool { queue.withLock { $0.isClosed } }

  /// The next item, waiting for one; `nil` once closed, or cancelled.
  func next() async -> Item? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Item?, Never>) in
        let item: Item?? = queue.withLock { queue in
          if queue.isClosed || Task.isCancelled { return .some(nil) }
          if queue.head < queue.messages.count {
            let message = queue.messages[queue.head]
            queue.head += 1
            queue.bytes -= message.utf8.count
            if queue.head == queue.messages.count {
              queue.messages.removeAll(keepingCapacity: true)
              queue.head = 0
            }
            return .some(.message(message))
          }
          if queue.hasLines {
            queue.hasLines = false
            return .some(.lines)
          }
          queue.taker = continuation
          return .none
        }
        if let item { continuation.resume(returning: item) }
      }
    } onCancel: {
      close()
    }
  }
}
