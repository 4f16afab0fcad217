import Foundation
import ReactorJSON
import Synchronization
import Testing

@testable import ReactorTracing

@Suite("The states a writer hashes, or has hashed by the waiting reactor")
struct StateHashJobsTests {
  /// A batch's pending hashes, over lines of 18-byte placeholders, one per state.
  private struct Writing {
    let lock = WriterLock()
    let jobs: StateHashJobs
    var pending: PendingHashes
    var line = LineWriter()
    var offsets: [Int] = []

    init() {
      jobs = StateHashJobs(lock: lock)
      pending = PendingHashes(jobs: jobs)
    }

    /// Adds each of `states`, its hash to go over a new placeholder.
    mutating func add(_ states: [[UInt8]]) {
      for state in states {
        offsets.append(line.bytes.count)
        line.bytes.append(contentsOf: Array(repeating: UInt8(ascii: "?"), count: 18))
        pending.append(state, hashAt: offsets.last!, in: &line)
      }
    }

    /// Hashes every pending state into the lines.
    mutating func resolve() { pending.resolve(in: &line) }

    /// Starts lines of their own for the next states; what is pending stays.
    mutating func startLines() {
      line = LineWriter()
      offsets = []
    }

    /// The hashes written over the placeholders, as text (`?` where none was).
    var written: [String] {
      offsets.map { String(decoding: line.bytes[$0..<$0 + 18], as: UTF8.self) }
    }

    /// How many jobs of the ring are open.
    var openJobs: Int {
      jobs.jobs.filter {
        $0.status.load(ordering: .relaxed) == StateHashJobs.Status.open.rawValue
      }.count
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
    var writing = Writing()
    // Sixteen states of 2,000 bytes make one job, opened to a helper.
    let states = Self.states(16, length: 2_000)
    writing.add(states)
    #expect(writing.written.allSatisfy { $0.allSatisfy { $0 == "?" } })
    #expect(writing.openJobs == 1)

    writing.lock.lock()
    #expect(writing.jobs.help())
    #expect(writing.lock.isLocked)
    #expect(!writing.jobs.help())
    writing.jobs.stopHelping()
    writing.lock.unlock()
    #expect(
      writing.jobs.jobs[0].status.load(ordering: .relaxed) == StateHashJobs.Status.done.rawValue)

    writing.resolve()
    #expect(writing.written == Self.quotedHashes(of: states))
    #expect(writing.jobs.jobs.allSatisfy { $0.status.load(ordering: .relaxed) == 0 })
  }

  @Test func theWriterHashesTheJobsNobodyTookAndTheStatesNotYetAJob() {
    var writing = Writing()
    // Two jobs of sixteen and seven states left over, one of them shorter than the rest.
    var states = Self.states(39, length: 2_000)
    states[20].removeLast(500)
    writing.add(states)
    writing.resolve()
    #expect(writing.written == Self.quotedHashes(of: states))
  }

  @Test func smallStatesAreHashedAtOnceWithoutAJobForAHelper() {
    var writing = Writing()
    let states = Self.states(16, length: 100)
    writing.add(states)
    // Written before the batch ends, and nothing to help with.
    #expect(writing.written == Self.quotedHashes(of: states))
    #expect(writing.openJobs == 0)
  }

  @Test func aFullRingOrTooManyBytesOpenMakeTheWriterTakeBackItsOldestJobFirst() {
    var writing = Writing()
    // More jobs than the ring holds: the first ones are hashed by the writer to make room.
    let states = Self.states(StateHashJobs.capacity * 16 + 32, length: 2_000)
    writing.add(states)
    #expect(writing.openJobs == StateHashJobs.capacity)
    #expect(writing.written[0] == Self.quotedHashes(of: [states[0]])[0])
    writing.resolve()
    #expect(writing.written == Self.quotedHashes(of: states))

    // States of 300,000 bytes: a job of four each, and at most a mebibyte of them open.
    writing.startLines()
    let large = Self.states(8, length: 300_000)
    writing.add(large)
    #expect(writing.openJobs == 1)
    #expect(writing.written[0] == Self.quotedHashes(of: [large[0]])[0])
    writing.resolve()
    #expect(writing.written == Self.quotedHashes(of: large))
  }

  @Test func theArraysOfEmptiedJobsAreLentBackForTheNextStates() {
    var writing = Writing()
    var bytes: [UInt8] = [1, 2, 3]
    writing.pending.lendSpare(to: &bytes)
    #expect(bytes == [1, 2, 3])
    writing.add(Self.states(16, length: 2_000))
    writing.resolve()
    writing.pending.lendSpare(to: &bytes)
    #expect(bytes.count == 2_000)
    #expect(writing.jobs.spares.count == 15)
  }

  /// What the test's helper thread is told and counts, with the lock held.
  private final class HelperState: @unchecked Sendable {
    var isStopping = false
    var isStopped = false
    var helped = 0
  }

  @Test func theHashesAreRightWhicheverSideTakesEachJob() {
    var writing = Writing()
    let (lock, jobs) = (writing.lock, writing.jobs)
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
    // Four batches of 200 states: 48 jobs, and eight states each hashed at the batch's end.
    let states = Self.states(800, length: 1_500)
    for batch in 0..<4 {
      writing.add(Array(states[batch * 200..<(batch + 1) * 200]))
      writing.resolve()
    }
    #expect(writing.written == Self.quotedHashes(of: states))
    lock.lock()
    helper.isStopping = true
    lock.unlock()
    lock.broadcast()
    lock.lock()
    while !helper.isStopped { lock.wait() }
    #expect(helper.helped <= 48)
    lock.unlock()
  }
}
