import ReactorJSON

/// States whose hashes a batch's lines still need, hashed four at a time and written over
/// the placeholders their lines hold: small states at once, large ones through jobs of
/// ``StateHashJobs``, which the reactor's actor hashes while it waits for room.
///
/// FNV-1a is a chain of multiplications, each waiting on the last; four independent chains
/// in one loop keep the multiplier busy, so four states hash in about the time of one.
struct PendingHashes {
  private let jobs: StateHashJobs
  /// The states gathered for the next job, and where each one's hash goes in the lines: the
  /// offset of its opening quote.
  private var states: [[UInt8]] = []
  private var offsets: [Int] = []
  private var stateBytes = 0
  /// Where the hashes of each open job go in the lines, by the job's index in the ring.
  private var jobOffsets: [[Int]]
  /// The ring index of the oldest open job, how many are open, and the bytes they hold.
  private var first = 0
  private var openCount = 0
  private var openBytes = 0
  /// The hashes of states hashed at once.
  private var hashes = [UInt64](repeating: 0, count: StateHashJobs.statesPerJob)

  /// Hashes for one batch's lines, large states going through `jobs`.
  init(jobs: StateHashJobs) {
    self.jobs = jobs
    first = jobs.nextIndex
    jobOffsets = Array(repeating: [], count: StateHashJobs.capacity)
    states.reserveCapacity(StateHashJobs.statesPerJob)
    offsets.reserveCapacity(StateHashJobs.statesPerJob)
  }

  /// Adds a state's canonical JSON, whose hash goes in quotes at `offset` in `line`.
  ///
  /// Every four states, they are hashed at once when a job of such states would be small
  /// (``StateHashJobs/smallestJobBytes``), else gathered until they make a job
  /// (``StateHashJobs/statesPerJob`` of them, or ``StateHashJobs/bytesPerJob``), which is
  /// opened, the oldest open job being taken back first when the ring is full.
  @inline(__always)
  mutating func append(_ state: [UInt8], hashAt offset: Int, in line: inout LineWriter) {
    states.append(state)
    offsets.append(offset)
    stateBytes += state.count
    guard states.count % 4 == 0 else { return }
    if stateBytes * StateHashJobs.statesPerJob < StateHashJobs.smallestJobBytes * states.count {
      hashGathered(in: &line)
      return
    }
    guard states.count == StateHashJobs.statesPerJob || stateBytes >= StateHashJobs.bytesPerJob
    else { return }
    openGathered(in: &line)
  }

  /// Opens the states gathered as a job, taking the oldest open job back first when the ring
  /// is full or the open jobs hold too many bytes.
  private mutating func openGathered(in line: inout LineWriter) {
    while openCount == StateHashJobs.capacity
      || openCount > 0 && openBytes + stateBytes > StateHashJobs.openByteBudget
    {
      takeBackOldest(in: &line)
    }
    let index = (first + openCount) % StateHashJobs.capacity
    let job = jobs.jobs[index]
    swap(&job.states, &states)
    job.byteCount = stateBytes
    swap(&jobOffsets[index], &offsets)
    offsets.removeAll(keepingCapacity: true)
    openBytes += stateBytes
    stateBytes = 0
    openCount += 1
    jobs.open(at: index)
  }

  /// Gives `bytes`, about to be overwritten with the next state, the memory of a state
  /// already hashed, when there is one (``StateHashJobs/lendSpare(to:)``).
  @inline(__always)
  func lendSpare(to bytes: inout [UInt8]) { jobs.lendSpare(to: &bytes) }

  /// Hashes every pending state and writes each hash at its place in `line`.
  mutating func resolve(in line: inout LineWriter) {
    if !states.isEmpty { hashGathered(in: &line) }
    // The newest first, while a helper takes the oldest.
    for step in stride(from: openCount - 1, through: 0, by: -1) {
      jobs.hashHere(at: (first + step) % StateHashJobs.capacity)
    }
    while openCount > 0 { takeBackOldest(in: &line) }
  }

  /// Hashes the states gathered for the next job here and writes their hashes.
  private mutating func hashGathered(in line: inout LineWriter) {
    if states.count == 4 {
      // Small states, four at a time: one call, without the general loop.
      let four = FNV1a64.hash(states[0], states[1], states[2], states[3])
      hashes.withUnsafeMutableBufferPointer { ($0[0], $0[1], $0[2], $0[3]) = four }
    } else {
      StateHashJobs.hash(states, into: &hashes)
    }
    Self.write(hashes, at: offsets, in: &line)
    states.removeAll(keepingCapacity: true)
    offsets.removeAll(keepingCapacity: true)
    stateBytes = 0
  }

  /// Takes the oldest open job back (hashing it here unless a helper took it) and writes
  /// its hashes.
  private mutating func takeBackOldest(in line: inout LineWriter) {
    let job = jobs.takeBack(at: first)
    Self.write(job.hashes, at: jobOffsets[first], in: &line)
    jobOffsets[first].removeAll(keepingCapacity: true)
    openBytes -= job.byteCount
    jobs.release(at: first)
    first = (first + 1) % StateHashJobs.capacity
    openCount -= 1
  }

  private static func write(_ hashes: [UInt64], at offsets: [Int], in line: inout LineWriter) {
    line.bytes.withUnsafeMutableBufferPointer { bytes in
      for index in offsets.indices {
        precondition(offsets[index] + ByteCursor.hashCount <= bytes.count)
        var cursor = ByteCursor(bytes.baseAddress! + offsets[index])
        cursor.write(TraceHash(hashes[index]))
      }
    }
  }
}
