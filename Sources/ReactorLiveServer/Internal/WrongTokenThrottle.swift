import Synchronization

/// Holds back the answers to wrong tokens so that, over all clients, at most `perSecond`
/// of them leave each second after a first `burst`: a token cannot be guessed faster
/// (generic cell rate: each wrong answer is due one interval after the previous one).
///
/// A held-back request keeps its connection, which counts against the cap on connections
/// without the token, so the clients guessing cannot queue more than that cap either.
/// Requests with the right token are never held.
final class WrongTokenThrottle: Sendable {
  private let interval: Duration
  private let burst: Duration
  /// When the next wrong answer is due, at the earliest.
  private let due = Mutex<ContinuousClock.Instant?>(nil)

  init(perSecond: Int, burst: Int) {
    interval = .seconds(1) / max(1, perSecond)
    self.burst = interval * max(0, burst)
  }

  /// How long to wait before answering a wrong token presented at `now`.
  func delay(at now: ContinuousClock.Instant) -> Duration {
    due.withLock { due in
      let theoretical = max(due ?? now, now)
      due = theoretical + interval
      return max(.zero, theoretical - burst - now)
    }
  }
}
