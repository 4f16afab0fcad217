/// How a recorder records: metadata for the header, redaction, a size limit, how often it
/// stores full states, how it flushes, how much it may queue, and the clock it times events
/// with.
public struct TraceOptions: Sendable {
  /// Free-form facts written into the header: app version, device, test name.
  public var metadata: [String: String]
  /// Paths to hide in actions, mutations and states (see ``TraceRedaction``).
  public var redactions: [TraceRedaction]
  /// How much of the run to keep.
  public var limit: TraceLimit
  /// The most mutations between two full state snapshots; between them, each state is stored
  /// as a diff from the one before (unless the diff would be larger than the state), so the
  /// trace grows with what changes, not with the size of the state.
  public var snapshotInterval: Int
  /// A file recorder writes what it has buffered at least this often.
  public var flushInterval: Duration
  /// A file recorder also writes as soon as this many events are buffered; with the wait
  /// policy, the reactor also waits rather than queue more than this many for the writer, so
  /// that a crash loses at most these (or the events of the last ``flushInterval``, when
  /// fewer).
  public var flushThreshold: Int
  /// The most bytes a file recorder holds queued between the reactor and its writer thread,
  /// 32 MiB unless told otherwise.
  ///
  /// The bytes are estimated as events are queued: twice each event's fixed size (its
  /// buffers grow by doubling and are double-buffered), plus, for a mutation, six times the
  /// length of the last state's canonical JSON the writer measured (a queued array of small
  /// integers takes about that much memory, most other states less), less the stored
  /// properties whose storage that state shared with the state before it: copy-on-write
  /// shares an array, dictionary, set or string `reduce` did not change, so a state whose
  /// 100 KB text is unchanged counts at the few bytes that changed. A session recorder
  /// counts a line it queues at twice its length, and an action or mutation of a reactor whose
  /// values it queues for the writer to encode as above, with its reactor's last state. An
  /// event is always queued when the queue is empty, so one state larger than the budget still
  /// records.
  public var queueBudget: Int
  /// What happens when an event would take the queue over ``queueBudget``: wait for the
  /// writer (the default) or drop it and record a gap.
  public var overflow: TraceOverflowPolicy
  /// The clock that times events.
  ///
  /// Use a `TestClock` for reproducible traces: with a clock
  /// other than `ContinuousClock` or `SuspendingClock`, the header records no wall-clock
  /// origin, and the same run gives the same bytes.
  public var clock: any Clock<Duration>
  /// Whether each `effectStart` records the `id` given to `Effect.run` (its description, as
  /// `cancelID`) and its `cancelInFlight`: format 1.3, off by default so that traces
  /// recorded without it stay byte for byte what they were.
  ///
  /// Turn it on for traces a mutate replay with recorded effects will check: it then compares
  /// each effect's id and `cancelInFlight` with today's `mutate`, instead of inferring them
  /// from the cancellations the trace shows.
  public var recordsEffectIDs: Bool
  /// Whether the recording may hold jumps: a trace then declares format 1.4 and a session 2.2.
  ///
  /// A jump (``TraceEvent/Jump``) is the state set from outside the app
  /// (``ReactorCore/Reactor/jump(to:event:from:)``). A trace's 1.4 includes 1.3, so a trace of one reactor also
  /// records effect ids (as ``recordsEffectIDs``). Off by default, so that recordings without it stay byte for byte
  /// what they were; a live recording that accepts control turns it on.
  public var recordsJumps: Bool

  /// Options, each defaulted: no metadata, no redaction, no limit, a snapshot at least every
  /// 256 mutations, flushes every 200 ms or 4,096 events, at most 32 MiB queued, waiting when
  /// it is full, timed on `ContinuousClock`, effect ids not recorded.
  public init(
    metadata: [String: String] = [:], redactions: [TraceRedaction] = [],
    limit: TraceLimit = .unlimited, snapshotInterval: Int = 256,
    flushInterval: Duration = .milliseconds(200), flushThreshold: Int = 4096,
    queueBudget: Int = 32 << 20, overflow: TraceOverflowPolicy = .wait,
    clock: any Clock<Duration> = ContinuousClock(), recordsEffectIDs: Bool = false
  ) {
    self.recordsEffectIDs = recordsEffectIDs
    recordsJumps = false
    self.queueBudget = queueBudget
    self.overflow = overflow
    self.metadata = metadata
    self.redactions = redactions
    self.limit = limit
    self.snapshotInterval = snapshotInterval
    self.flushInterval = flushInterval
    self.flushThreshold = flushThreshold
    self.clock = clock
  }
}
