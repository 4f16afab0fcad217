import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock and condition a writer and its thread share (``WriterHandshake/condition``),
/// with `NSCondition`'s calls: ``lock()``, ``unlock()``, ``wait()``, ``wait(until:)``,
/// ``broadcast()``.
///
/// The recorder takes the lock for every event on the reactor's actor, and each side holds it
/// only to hand the queue over (never across encoding or I/O), so it is an atomic flag: taking
/// and leaving it is an exchange and a store, inline, where a mutex (and `NSCondition`'s
/// overridable methods around it) cost more than a tenth of recording an event there. A side
/// that finds it held spins a little, then yields its processor until it is free.
///
/// Waiting goes through a POSIX mutex and condition variable of its own, with a count of
/// broadcasts: a waiter notes the count with the lock held, leaves the lock, and sleeps until
/// the count moves. A side that changes what a waiter waits for does so with the lock held and
/// broadcasts afterwards, so no wake-up is lost; like `NSCondition`'s, a wait may return
/// without one, and callers check what they wait for in a loop.
///
/// `@unchecked Sendable`: a lock, for threads to share.
final class WriterLock: @unchecked Sendable {
  private let isHeld = Atomic<Bool>(false)
  /// How many broadcasts there were; changed and read for sleeping with `mutex` held.
  private let broadcasts = Atomic<Int>(0)
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let cond: UnsafeMutablePointer<pthread_cond_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    cond = .allocate(capacity: 1)
    cond.initialize(to: pthread_cond_t())
    pthread_cond_init(cond, nil)
  }

  deinit {
    pthread_cond_destroy(cond)
    cond.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  @inline(__always)
  func lock() {
    if isHeld.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
      return
    }
    lockHeld()
  }

  /// Takes the lock that the other side holds.
  @inline(never)
  private func lockHeld() {
    while true {
      for _ in 0..<100 {
        if !isHeld.load(ordering: .relaxed),
          isHeld.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        {
          return
        }
      }
      sched_yield()
    }
  }

  /// Whether the lock is held now, by either side (for tests).
  var isLocked: Bool { isHeld.load(ordering: .relaxed) }

  @inline(__always)
  func unlock() {
    isHeld.store(false, ordering: .releasing)
  }

  /// With the lock held: leaves it until a ``broadcast()``, then takes it again.
  func wait() {
    _ = sleep(until: nil)
  }

  /// With the lock held: leaves it until a ``broadcast()`` or until `deadline` (wall-clock
  /// time), then takes it again.
  /// - Returns: `false` when the deadline passed first.
  func wait(until deadline: Date) -> Bool {
    sleep(until: deadline)
  }

  private func sleep(until deadline: Date?) -> Bool {
    var time = timespec()
    if let deadline {
      let seconds = deadline.timeIntervalSince1970
      guard seconds.isFinite, seconds > 0 else { return false }
      // A deadline past 2038 waits as long as one then.
      let whole = seconds.rounded(.down)
      let isFar = whole >= Double(Int32.max)
      time.tv_sec = isFar ? Int(Int32.max) : Int(whole)
      time.tv_nsec = isFar ? 0 : min(999_999_999, max(0, Int((seconds - whole) * 1e9)))
    }
    let seen = broadcasts.load(ordering: .relaxed)
    unlock()
    var isWoken = true
    pthread_mutex_lock(mutex)
    while broadcasts.load(ordering: .relaxed) == seen {
      if deadline == nil {
        pthread_cond_wait(cond, mutex)
      } else if pthread_cond_timedwait(cond, mutex, &time) == ETIMEDOUT {
        isWoken = broadcasts.load(ordering: .relaxed) != seen
        break
      }
    }
    pthread_mutex_unlock(mutex)
    lock()
    return isWoken
  }

  /// Wakes every side waiting; with the lock held or not.
  func broadcast() {
    pthread_mutex_lock(mutex)
    broadcasts.add(1, ordering: .relaxed)
    pthread_cond_broadcast(cond)
    pthread_mutex_unlock(mutex)
  }
}
