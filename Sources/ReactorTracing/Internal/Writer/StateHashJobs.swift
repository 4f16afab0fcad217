import ReactorJSON
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The states a file writer still has to hash, in a small ring of jobs that the reactor's
/// actor can take over while it waits for room in a full queue.
///
/// With ``TraceOverflowPolicy/wait``, a reactor faster than the writer spends most of its
/// time waiting for the writer to make room, on a processor of its own. Hashing is the
/// writer's largest cost that needs nothing from it but the state's canonical bytes, so the
/// writer opens a job for every few states it encodes (``PendingHashes``) and the waiting
/// actor hashes open jobs (``help()``) instead of sleeping, oldest first. The
/// writer takes back what nobody took before it writes the lines. A reactor that never waits
/// never hashes, and the lines are the same whoever hashed them.
///
/// A job moves `empty → open` (the writer), then `open → helping → done` (the helper) or
/// `open → writing → done` (the writer), and back to `empty` once the writer has read its
/// hashes. Only the writer touches a job when it is `empty` or `writing`, only the helper
/// when it is `helping`; each hand-over is an atomic store that releases what was written
/// before it. The writer waits for a job a helper took only at the few microseconds of its
/// hashing, never for a helper to come.
///
/// `@unchecked Sendable`: each job's contents belong to whoever its status says.
final class StateHashJobs: @unchecked Sendable {
  /// How many jobs can be open at once.
  static var capacity: Int { 16 }
  /// The most states in a job: a multiple of the four states hashed together.
  static var statesPerJob: Int { 16 }
  /// A job closes once it holds this many bytes of states, in fours.
  static var bytesPerJob: Int { 64 << 10 }
  /// The fewest bytes of states worth a job: fewer are hashed at once, as waking a helper
  /// and handing the states over would cost more than hashing them.
  static var smallestJobBytes: Int { 16 << 10 }
  /// The most bytes of states the open jobs hold: the writer hashes the oldest itself
  /// rather than hold more.
  static var openByteBudget: Int { 1 << 20 }

  /// A job's status (see the type's comment).
  enum Status: Int {
    case empty, open, helping, done, writing
  }

  /// A few states and, once hashed, their hashes.
  final class Job: @unchecked Sendable {
    let status = Atomic<Int>(Status.empty.rawValue)
    @exclusivity(unchecked) var states: [[UInt8]] = []
    @exclusivity(unchecked) var hashes: [UInt64] = Array(
      repeating: 0, count: StateHashJobs.statesPerJob)
    @exclusivity(unchecked) var byteCount = 0

    init() { states.reserveCapacity(StateHashJobs.statesPerJob) }

    /// Hashes the job's states into `hashes`.
    func hash() { StateHashJobs.hash(states, into: &hashes) }
  }

  /// Hashes `states` four at a time into the first of `hashes`.
  static func hash(_ states: [[UInt8]], into hashes: inout [UInt64]) {
    precondition(hashes.count >= states.count)
    hashes.withUnsafeMutableBufferPointer { hashes in
      let empty: [UInt8] = []
      var start = 0
      while start < states.count {
        let count = states.count - start
        let (first, second, third, fourth) = FNV1a64.hash(
          states[start], count > 1 ? states[start + 1] : empty,
          count > 2 ? states[start + 2] : empty, count > 3 ? states[start + 3] : empty)
        hashes[start] = first
        if count > 1 { hashes[start + 1] = second }
        if count > 2 { hashes[start + 2] = third }
        if count > 3 { hashes[start + 3] = fourth }
        start += 4
      }
    }
  }

  /// The ring of jobs.
  let jobs: [Job]
  /// Where the writer's oldest job not taken back is in the ring: where a helper starts,
  /// and where the next batch's first job goes.
  let oldest = Atomic<Int>(0)
  /// Whether the reactor's actor is waiting for room and would hash: the writer wakes it
  /// when it opens a job.
  let isHelperWaiting = Atomic<Bool>(false)
  /// Arrays of jobs the writer has emptied, for it to encode the next states into.
  ///
  /// The writer's alone. Reusing them keeps the writer's heap from shrinking when a batch of
  /// jobs is emptied and growing again page by page for the next.
  @exclusivity(unchecked) var spares: [[UInt8]] = []
  @exclusivity(unchecked) private var spareBytes = 0
  /// The lock the helper sleeps on, broadcast to wake it.
  private let lock: WriterLock

  /// A ring of empty jobs; a helper waiting on `lock` is woken by its broadcasts.
  init(lock: WriterLock) {
    self.lock = lock
    jobs = (0..<Self.capacity).map { _ in Job() }
  }

  /// On the writer: where its next job goes in the ring when none is open.
  var nextIndex: Int { oldest.load(ordering: .relaxed) }

  /// On the writer: makes the job at `index`, whose states are in, open to a helper.
  func open(at index: Int) {
    jobs[index].status.store(Status.open.rawValue, ordering: .sequentiallyConsistent)
    if isHelperWaiting.load(ordering: .sequentiallyConsistent) { lock.broadcast() }
  }

  /// On the writer: hashes the job at `index` here, unless a helper took it; returns
  /// whether it did.
  @discardableResult
  func hashHere(at index: Int) -> Bool {
    let job = jobs[index]
    guard
      job.status.compareExchange(
        expected: Status.open.rawValue, desired: Status.writing.rawValue, ordering: .acquiring
      ).exchanged
    else { return false }
    job.hash()
    job.status.store(Status.done.rawValue, ordering: .relaxed)
    return true
  }

  /// On the writer: the job at `index`, hashed here unless a helper took it, whose hashing
  /// it then waits for.
  func takeBack(at index: Int) -> Job {
    let job = jobs[index]
    if hashHere(at: index) { return job }
    var spins = 0
    while job.status.load(ordering: .acquiring) != Status.done.rawValue {
      spins += 1
      if spins >= 100 {
        sched_yield()
        spins = 0
      }
    }
    return job
  }

  /// On the writer, once it has read the hashes of its oldest job: empties it for reuse; a
  /// helper starts from the next one.
  func release(at index: Int) {
    let job = jobs[index]
    for state in job.states where spareBytes + state.capacity <= Self.openByteBudget {
      spares.append(state)
      spareBytes += state.capacity
    }
    job.states.removeAll(keepingCapacity: true)
    job.byteCount = 0
    job.status.store(Status.empty.rawValue, ordering: .releasing)
    oldest.store((index + 1) % jobs.count, ordering: .relaxed)
  }

  /// On the writer: replaces `bytes`, which a job may hold, with an array a job held before,
  /// when there is one.
  @inline(__always)
  func lendSpare(to bytes: inout [UInt8]) {
    if !spares.isEmpty { lendSpareNow(to: &bytes) }
  }

  private func lendSpareNow(to bytes: inout [UInt8]) {
    let spare = spares.removeLast()
    spareBytes -= spare.capacity
    bytes = spare
  }

  /// On the reactor's actor, waiting for room with the lock held: hashes the oldest open job.
  ///
  /// Leaves the lock while it hashes, and returns whether there was a job. When there was
  /// none, the writer wakes the actor (a broadcast on the lock) at the next job it opens.
  func help() -> Bool {
    isHelperWaiting.store(true, ordering: .sequentiallyConsistent)
    let start = oldest.load(ordering: .relaxed)
    for step in 0..<jobs.count {
      let job = jobs[(start + step) % jobs.count]
      guard
        job.status.compareExchange(
          expected: Status.open.rawValue, desired: Status.helping.rawValue,
          ordering: .sequentiallyConsistent
        ).exchanged
      else { continue }
      isHelperWaiting.store(false, ordering: .relaxed)
      lock.unlock()
      job.hash()
      job.status.store(Status.done.rawValue, ordering: .releasing)
      lock.lock()
      return true
    }
    return false
  }

  /// On the reactor's actor, once it stops waiting: the writer need not wake it any more.
  func stopHelping() {
    isHelperWaiting.store(false, ordering: .relaxed)
  }
}
