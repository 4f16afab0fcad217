import Foundation
import Testing

@testable import ReactorTracing

@Suite("The writer's lock")
struct WriterLockTests {
  /// What two threads tell each other through the lock, read and written with it held.
  private final class Flags: @unchecked Sendable {
    var isReady = false
    var isGoing = false
    var isDone = false
  }

  @Test func aWaitWhoseDeadlineHasPassedReturnsFalseWithTheLockHeldAgain() {
    let lock = WriterLock()
    lock.lock()
    #expect(!lock.wait(until: Date(timeIntervalSinceNow: -1)))
    #expect(!lock.wait(until: Date(timeIntervalSince1970: 0)))
    #expect(lock.isLocked)
    lock.unlock()
    #expect(!lock.isLocked)
  }

  @Test func aWaiterWokenByABroadcastHoldsTheLockAgainAndSeesWhatChangedWithIt() {
    let lock = WriterLock()
    let flags = Flags()
    lock.lock()
    // The thread takes the lock while this one holds it (until it waits), then each side
    // waits for what the other changes with the lock held.
    let thread = Thread {
      lock.lock()
      flags.isReady = true
      lock.broadcast()
      while !flags.isGoing { lock.wait() }
      flags.isDone = true
      lock.unlock()
      lock.broadcast()
    }
    thread.start()
    while !flags.isReady { lock.wait() }
    #expect(lock.isLocked)
    flags.isGoing = true
    lock.broadcast()
    while !flags.isDone {
      #expect(lock.wait(until: Date.distantFuture))
    }
    #expect(flags.isReady && flags.isGoing && flags.isDone)
    lock.unlock()
  }
}
