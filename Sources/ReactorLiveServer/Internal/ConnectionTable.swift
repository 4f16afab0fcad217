import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Every open connection, its deadline, and whether it presented the token: the caps on
/// connections and the deadlines that bound how long a client may hold one.
///
/// A connection is admitted while fewer than `maximumConnections` are open; otherwise it is
/// answered 503 and closed at once. When `maximumConnectionsWithoutToken` connections have
/// not presented the token yet, the oldest of them is shut down to make room: connections
/// that hold on without a token cannot keep an app out (an app presents its token in its
/// first request). A connection whose deadline passes is shut down (its
/// task then sees the socket end and closes it), under the same lock that removes it, so a
/// descriptor number reused later is never shut down by mistake.
final class ConnectionTable: Sendable {
  private struct Entry {
    var descriptor: Int32
    var deadline: ContinuousClock.Instant?
    /// Whether it counts against the cap on connections without the token.
    var isWithoutToken = true
    /// Whether it was shut down because its deadline passed.
    var wasLate = false
  }

  private struct State {
    var entries: [Int: Entry] = [:]
    var next = 1
    var withoutToken = 0
  }

  let maximumConnections: Int
  let maximumConnectionsWithoutToken: Int
  private let state = Mutex(State())

  init(maximumConnections: Int, maximumConnectionsWithoutToken: Int) {
    self.maximumConnections = maximumConnections
    self.maximumConnectionsWithoutToken = min(maximumConnectionsWithoutToken, maximumConnections)
  }

  /// Admits a connection on `descriptor` with a first deadline, or says why not.
  func admit(_ descriptor: Int32, deadline: ContinuousClock.Instant) -> Result<Int, Refusal> {
    state.withLock { state in
      guard state.entries.count < maximumConnections else {
        return .failure(.tooManyConnections(maximumConnections))
      }
      if state.withoutToken >= maximumConnectionsWithoutToken,
        let oldest = state.entries.filter({ $0.value.isWithoutToken }).keys.min(),
        var entry = state.entries[oldest]
      {
        _ = shutdown(entry.descriptor, Int32(SHUT_RDWR))
        entry.isWithoutToken = false
        entry.deadline = nil
        state.entries[oldest] = entry
        state.withoutToken -= 1
      }
      let number = state.next
      state.next += 1
      state.entries[number] = Entry(descriptor: descriptor, deadline: deadline)
      state.withoutToken += 1
      return .success(number)
    }
  }

  /// Why a connection was not admitted.
  enum Refusal: Error, CustomStringConvertible {
    case tooManyConnections(Int)

    var description: String {
      switch self {
      case .tooManyConnections(let limit): "\(limit) connections open already"
      }
    }
  }

  /// Connection `number` presented the token: it no longer counts against the cap on
  /// connections without one.
  func presentedToken(_ number: Int) {
    state.withLock { state in
      guard var entry = state.entries[number], entry.isWithoutToken else { return }
      entry.isWithoutToken = false
      state.entries[number] = entry
      state.withoutToken -= 1
    }
  }

  /// Sets (or, with `nil`, lifts) connection `number`'s deadline.
  func setDeadline(_ number: Int, _ deadline: ContinuousClock.Instant?) {
    state.withLock { state in state.entries[number]?.deadline = deadline }
  }

  /// Whether connection `number` was shut down because its deadline passed.
  func wasLate(_ number: Int) -> Bool {
    state.withLock { $0.entries[number]?.wasLate ?? false }
  }

  /// Forgets connection `number`, before its descriptor is closed.
  func remove(_ number: Int) {
    state.withLock { state in
      guard let entry = state.entries.removeValue(forKey: number) else { return }
      if entry.isWithoutToken { state.withoutToken -= 1 }
    }
  }

  /// Shuts down every connection whose deadline is before `now`; returns how many.
  @discardableResult
  func shutDownLate(at now: ContinuousClock.Instant) -> Int {
    state.withLock { state in
      var count = 0
      for (number, entry) in state.entries {
        guard let deadline = entry.deadline, deadline < now else { continue }
        _ = shutdown(entry.descriptor, Int32(SHUT_RDWR))
        state.entries[number]?.deadline = nil
        state.entries[number]?.wasLate = true
        count += 1
      }
      return count
    }
  }

  /// Shuts down connection `number` now (its other side ended).
  func shutDown(_ number: Int) {
    state.withLock { state in
      guard let entry = state.entries[number] else { return }
      _ = shutdown(entry.descriptor, Int32(SHUT_RDWR))
    }
  }

  /// Shuts down every connection (the server stops).
  func shutDownAll() {
    state.withLock { state in
      for entry in state.entries.values { _ = shutdown(entry.descriptor, Int32(SHUT_RDWR)) }
    }
  }

  /// How many connections are open, and how many of them without the token.
  var counts: (open: Int, withoutToken: Int) {
    state.withLock { ($0.entries.count, $0.withoutToken) }
  }
}
