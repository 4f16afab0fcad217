import Synchronization

/// The clock an exploration runs a reactor on: virtual time that moves only when the
/// explorer moves it, straight to the next sleeper's deadline.
///
/// Unlike a test clock advanced by fixed steps, it tells the explorer when the next sleeper
/// wakes, so letting an effect's 500 ms sleep pass costs one step. Sleepers with the same
/// deadline wake in the order they went to sleep; a cancelled sleeper throws
/// `CancellationError` at once.
///
/// Sendable: all its state is behind one `Mutex`.
final class VirtualClock: Clock, Sendable {
  /// A point in virtual time: the offset from when the clock was made.
  struct Instant: InstantProtocol, Sendable {
    var offset: Duration

    func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    var id: Int
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct Storage {
    var now = Instant(offset: .zero)
    var sleepers: [Sleeper] = []
    var cancelled: Set<Int> = []
    var lastID = 0
  }

  private let storage = Mutex(Storage())

  var now: Instant { storage.withLock { $0.now } }
  var minimumResolution: Duration { .zero }

  /// The earliest deadline of a sleeper, or `nil` when nobody sleeps.
  var nextDeadline: Instant? { storage.withLock { $0.sleepers.map(\.deadline).min() } }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
    let id = storage.withLock { storage in
      storage.lastID += 1
      return storage.lastID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let outcome: Result<Void, any Error>? = storage.withLock { storage in
          if storage.cancelled.remove(id) != nil { return .failure(CancellationError()) }
          if deadline <= storage.now { return .success(()) }
          storage.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let continuation = storage.withLock { storage -> CheckedContinuation<Void, any Error>? in
        guard let index = storage.sleepers.firstIndex(where: { $0.id == id }) else {
          storage.cancelled.insert(id)
          return nil
        }
        return storage.sleepers.remove(at: index).continuation
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock to the earliest deadline and wakes the sleepers due then.
  func advanceToNextDeadline() {
    let due = storage.withLock { storage -> [Sleeper] in
      guard let deadline = storage.sleepers.map(\.deadline).min() else { return [] }
      storage.now = max(storage.now, deadline)
      let due = storage.sleepers.filter { $0.deadline <= deadline }
      storage.sleepers.removeAll { $0.deadline <= deadline }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Wakes every sleeper with `CancellationError`, so that no continuation is left behind
  /// when a run is dropped.
  func cancelSleepers() {
    let sleepers = storage.withLock { storage in
      defer { storage.sleepers.removeAll() }
      return storage.sleepers
    }
    for sleeper in sleepers { sleeper.continuation.resume(throwing: CancellationError()) }
  }
}
