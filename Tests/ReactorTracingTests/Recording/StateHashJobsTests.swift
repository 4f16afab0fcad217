import Foundation
import ReactorJSON
import Synchronization
import Testing

@testable import ReactorTracing

@Suite("The states a writer hashes, or has hashed by the waiting reactor")
struct StateHashJobsTests {
  /// Lines of 18-byte placeholders, one per state, and where each one starts.
  private struct Placeholders {
    var line = LineWriter()
    var offsets: [Int] = []

    mutating func add() -> Int {
      let offset = line.bytes.count
      line.bytes.append(contentsOf: Array(repeating: UInt8(ascii: "?"), count: 18))
      offsets.append(offset)
      return offset
    }

    /// Adds each of `states` to `pending`, its hash to go over a new placeholder.
    mutating func add(_ states: [[UInt8]], to pending: inout PendingHashes) {
      for state in states { pending.append(state, hashAt: add(), in: &line) }
    }

    /// The hashes written over the placeholders, as text (`?` where none was).
    var written: [String] {
      offsets.map { String(decoding: line.bytes[$0..<$0 + 18], as: UTF8.self) }
    }
  }

  /// `count` states of `length` bytes each, all different.
  private static func states(_ count: Int, length: Int) -> [[UInt8]] {
    (0..<count).map { index in
      (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index &* 7 &+ $0 >> 8) }
    }
  }

  private static func quotedHashes(of states: [[UInt8]]) -> [String] {
    states.map { "\"\(TraceHash(of: $0))\"" }
  }

  @Test func aJobTheWaitingReactorHashedGivesTheLinesTheHashesTheWriterWouldHaveWritten() {
    let lock = WriterLock()
    let jobs = StateHashJobs(lock: lock)
    var pending = PendingHashes(jobs: jobs)
    var placeholders = Placeholders()
    // Sixteen states of 2,000 bytes make one job, opened to a helper.
    let states = Self.states(16, length: 2_000)
    placeholders.add(states, to: &pending)
    #expect(placeholders.written.allSatisfy { $0.allSatisfy { $0 == "?" } })

    lock.lock()
    #expect(jobs.help())
    #expect(lock.isLocked)
    #expect(!jobs.help())
    jobs.stopHelping()
    lock.unlock()
    #expect(jobs.jobs[0].status.load(ordering: .relaxed) == StateHashJobs.Status.done.rawValue)

    pending.resolve(in: &placeholders.line)
    #expect(placeholders.written == Self.quotedHashes(of: states))
    #expect(jobs.jobs.allSatisfy { $0.status.load(ordering: .relaxed) == 0 })
  }

  @Test func theWriterHashesTheJobsNobodyTookAndTheStatesNotYetAJob() {
    let jobs = StateHashJobs(lock: WriterLock())
    var pending = PendingHashes(jobs: jobs)
    var placeholders = Placeholders()
    // Two jobs of sixteen and seven states left over, one of them shorter than the rest.
    var states = Self.states(39, length: 2_000)
    states[20].removeLast(500)
    placeholders.add(states, to: &pending)
    pending.resolve(in: &placeholders.line)
    #expect(placeholders.written == Self.quotedHashes(of: states))
  }

  @Test func smallStatesAreHashedAtOnceWithoutAJobForAHelper() {
    let lock = WriterLock()
    let jobs = StateHashJobs(lock: lock)
    var pending = PendingHashes(jobs: jobs)
    var placeholders = Placeholders()
    let states = Self.states(16, length: 100)
    placeholders.add(states, to: &pending)
    // Written before the batch ends, and nothing to help with.
    #expect(placeholders.written == Self.quotedHashes(of: states))
    lock.lock()
    #expect(!jobs.help())
    lock.unlock()
  }

  @Test func aFullRingOrTooManyBytesOpenMakeTheWriterTakeBackItsOldestJobFirst() {
    let lock = WriterLock()
    let jobs = StateHashJobs(lock: lock)
    var pending = PendingHashes(jobs: jobs)
    var placeholders = Placeholders()
    // More jobs than the ring holds: the first ones are hashed by the writer to make room.
    let states = Self.states(StateHashJobs.capacity * 16 + 32, length: 2_000)
    placeholders.add(states, to: &pending)
    #expect(placeholders.written[0] == Self.quotedHashes(of: [states[0]])[0])
    pending.resolve(in: &placeholders.line)
    #expect(placeholders.written == Self.quotedHashes(of: states))

    // States of 300,000 bytes: a job of four each, and at most a mebibyte of them open.
    let large = Self.states(8, length: 300_000)
    var more = Placeholders()
    more.add(large, to: &pending)
    let open = jobs.jobs.filter {
      $0.status.load(ordering: .relaxed) == StateHashJobs.Status.open.rawValue
    }
    #expect(open.count == 1)
    #expect(more.written[0] == Self.quotedHashes(of: [large[0]])[0])
    pending.resolve(in: &more.line)
    #expect(more.written == Self.quotedHashes(of: large))
  }

  @Test func theArraysOfEmptiedJobsAreLentBackForTheNextStates() {
    let jobs = StateHashJobs(lock: WriterLock())
    var pending = PendingHashes(jobs: jobs)
    var placeholders = Placeholders()
    var bytes: [UInt8] = [1, 2, 3]
    pending.lendSpare(to: &bytes)
    #expect(bytes == [1, 2, 3])
    placeholders.add(Self.states(16, length: 2_000), to: &pending)
    pending.resolve(in: &placeholders.line)
    pending.lendSpare(to: &bytes)
    #expect(bytes.count == 2_000)
    #expect(jobs.spares.count == 15)
  }

  /// What the test's helper thread is told and counts, with the lock held.
  private final class HelperState: @unchecked Sendable {
    var isStopping = false
    var isStopped = false
    var helped = 0
  }

  @Test func theHashesAreRightWhicheverSideTakesEachJob() {
    let lock = WriterLock()
    let jobs = StateHashJobs(lock: lock)
    let helper = HelperState()
    // A helper that hashes every job it finds and sleeps on the lock in between, as the
    // reactor's actor does while it waits for room.
    let thread = Thread {
      lock.lock()
      while !helper.isStopping {
        if jobs.help() { helper.helped += 1 } else { lock.wait() }
      }
      jobs.stopHelping()
      helper.isStopped = true
      lock.unlock()
      lock.broadcast()
    }
    thread.start()
    var pending = PendingHashes(jobs: jobs)
    var placeholders = Placeholders()
    let states = Self.states(800, length: 1_500)
    for (index, state) in states.enumerated() {
      pending.append(state, hashAt: placeholders.add(), in: &placeholders.line)
      if index % 200 == 199 { pending.resolve(in: &placeholders.line) }
    }
    pending.resolve(in: &placeholders.line)
    #expect(placeholders.written == Self.quotedHashes(of: states))
    lock.lock()
    helper.isStopping = true
    lock.unlock()
    lock.broadcast()
    lock.lock()
    while !helper.isStopped { lock.wait() }
    #expect(helper.helped <= 50)
    lock.unlock()
  }
}
