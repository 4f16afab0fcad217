import ReactorTracing

/// The hashes of one reactor's recorded states, by the `seq` of the events that set them
/// (its introduction or the window's start, its mutations and jumps): what tells whether a
/// jump's state is the one recorded after its target (issue 43).
///
/// 16 bytes per state change, kept only for an input whose version can hold a jump (1.4 and
/// later, 2.2 and later for a session): a streaming replay of any other input keeps nothing,
/// and its memory does not grow with its length. A jump in such an input is a problem of its
/// own. Where the input lost the state (before a window, after a gap until the next mutation)
/// nothing is known, and a jump there is not checked.
struct RecordedStateHashes {
  /// The `seq` of each event that set a state, increasing.
  private var sequences: [Int] = []
  /// The hash of the state after it, or `nil` when the input lost it.
  private var hashes: [UInt64?] = []
  /// The input's version when it cannot hold a jump: then nothing is kept.
  private let versionWithoutJumps: TraceFormatVersion?

  /// No state yet: a session's reactor, noted at its introduction.
  /// - Parameter version: The input's version, or `nil` to keep every hash whatever it is
  ///   (for events already held in memory).
  init(version: TraceFormatVersion? = nil) {
    versionWithoutJumps = version.flatMap { Self.canHoldJumps($0) ? nil : $0 }
  }

  /// The initial state of a trace of one reactor (or a reactor's lane): at `seq` 0, or for a
  /// flight-recorder window, the state after the event before its first.
  /// - Parameters:
  ///   - header: The trace's header.
  ///   - keepingAll: Whether to keep every hash whatever the trace's version.
  init(startingWith header: TraceHeader, keepingAll: Bool = false) {
    self.init(version: keepingAll ? nil : header.version)
    if let window = header.window {
      record(nil, at: 0)
      record(header.initialStateHash, at: window.firstSequence - 1)
    } else {
      record(header.initialStateHash, at: 0)
    }
  }

  /// The first jump of a trace of one reactor whose state is not the one recorded after its
  /// target, with its index among `events` and its problem.
  /// - Parameters:
  ///   - events: The trace's events from its first, as read.
  ///   - header: The trace's header.
  /// - Returns: The jump's index and problem, or `nil` when every jump's state is right.
  static func firstWrongJump(
    in events: some Sequence<TraceEvent>, header: TraceHeader
  ) -> (index: Int, problem: String)? {
    var hashes = RecordedStateHashes(startingWith: header, keepingAll: true)
    for (index, event) in events.enumerated() {
      switch event.kind {
      case .mutation(let mutation): hashes.record(mutation.stateHash, at: event.sequence)
      case .gap: hashes.record(nil, at: event.sequence)
      case .jump(let jump):
        let actual = jump.state.hash
        if let problem = hashes.problem(with: jump, at: event.sequence, actual: actual) {
          return (index, problem)
        }
        hashes.record(actual, at: event.sequence)
      default: break
      }
    }
    return nil
  }

  /// Notes the state after event `sequence`.
  /// - Parameters:
  ///   - hash: Its hash, or `nil` when the input lost it.
  ///   - sequence: The event's `seq`.
  mutating func record(_ hash: TraceHash?, at sequence: Int) {
    guard versionWithoutJumps == nil else { return }
    if let last = sequences.last, last >= sequence {
      // Two states at one `seq` (a window's start right after the introduction): the later.
      hashes[hashes.count - 1] = hash?.value
      return
    }
    sequences.append(sequence)
    hashes.append(hash?.value)
  }

  /// What is wrong with `jump`, a jump at event `sequence` whose state has hash `actual`:
  /// `nil` when its state is the one recorded after its target, or nothing is known of that
  /// one, or the target is not before the jump (reported on its own); when the input's
  /// version cannot hold a jump, that it holds one.
  /// - Parameters:
  ///   - jump: The jump.
  ///   - sequence: The jump's `seq`.
  ///   - actual: The hash of the state the jump holds.
  ///   - reactor: How the reactor is named: `reactor 2`, or `the reactor`.
  /// - Returns: The problem: `a jump to the state after event 9 whose state …`.
  func problem(
    with jump: TraceEvent.Jump, at sequence: Int, actual: TraceHash,
    reactor: String = "the reactor"
  ) -> String? {
    if let version = versionWithoutJumps {
      let (kind, added) =
        version.major == TraceHeader.jumpVersion.major
        ? ("trace", TraceHeader.jumpVersion) : ("session", SessionHeader.jumpVersion)
      return "a jump in a \(version) \(kind), which cannot hold one (jumps came with "
        + "\(added)): its state cannot be checked"
    }
    let target = jump.target
    guard target < sequence else { return nil }
    guard let first = sequences.first, target >= first else {
      guard let first = sequences.first else { return nil }
      return "a jump to the state after event \(target), before \(reactor) was introduced "
        + "(event \(first))"
    }
    // The last state set at or before the target.
    var low = 0
    var high = sequences.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if sequences[middle] <= target { low = middle } else { high = middle - 1 }
    }
    guard let recorded = hashes[low], recorded != actual.value else { return nil }
    return "a jump to the state after event \(target) whose state (hash \(actual)) is not the "
      + "one recorded after event \(target) (hash \(TraceHash(recorded)))"
  }

  /// Whether an input of `version` can hold a jump: a trace of 1.4 or later, a session of 2.2
  /// or later.
  /// - Parameter version: The input's version.
  /// - Returns: Whether it can.
  static func canHoldJumps(_ version: TraceFormatVersion) -> Bool {
    version.major == TraceHeader.jumpVersion.major
      ? version >= TraceHeader.jumpVersion : version >= SessionHeader.jumpVersion
  }
}
