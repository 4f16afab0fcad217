public import ReactorStateMachines

/// One line of a summary: how often one transition happened in one trace (or, merged, in
/// many), with what it is grouped by.
///
/// Summaries of different traces merge by adding up the ones with equal ``Key``s: counts and
/// outcomes add, the first time is the earliest and the last the latest. The line's JSON
/// shape is in `docs/fleet.md`; the DuckDB query and the Spark job in `fleet/` merge it
/// with the same rule.
///
/// ```swift
/// let lines = try TraceSummarizer(abstraction: abstraction).summarize(reader)
/// var merged = SummarySet()
/// merged.add(lines)
/// ```
public struct TransitionSummary: Sendable, Hashable {
  /// What a transition is grouped by: everything but the counts and times.
  public struct Key: Sendable, Hashable, Comparable {
    /// The reactor's type, module-qualified.
    public var reactor: String
    /// The schema fingerprint: the digests of Action, Mutation and State, joined by `-`.
    public var schema: String
    /// The app version from the trace's metadata (`appVersion`), or empty.
    public var appVersion: String
    /// The other metadata kept for grouping (chosen with `summarize --metadata`).
    public var metadata: [String: String]
    /// The state abstraction, as ``StateAbstraction/summaryText``.
    public var abstraction: String
    /// `unix` when times are Unix nanoseconds (the trace's clock had an origin), `trace`
    /// when they are nanoseconds since its recording began.
    public var timeBase: String
    /// The state before the mutation, under the abstraction.
    public var from: String
    /// The case of the action behind the mutation, or `stream NAME`.
    public var action: String
    /// The mutation's case.
    public var mutation: String
    /// The state after the mutation, under the abstraction.
    public var to: String

    /// Creates a key.
    public init(
      reactor: String, schema: String, appVersion: String, metadata: [String: String],
      abstraction: String, timeBase: String, from: String, action: String, mutation: String,
      to: String
    ) {
      self.reactor = reactor
      self.schema = schema
      self.appVersion = appVersion
      self.metadata = metadata
      self.abstraction = abstraction
      self.timeBase = timeBase
      self.from = from
      self.action = action
      self.mutation = mutation
      self.to = to
    }

    /// The transition the line counts: ``from``, ``to`` and the two case names.
    public var transition: StateTransition {
      StateTransition(source: from, target: to, mutation: mutation, action: action)
    }

    /// Orders keys field by field, comparing text by its UTF-8 bytes.
    public static func < (lhs: Key, rhs: Key) -> Bool {
      lhs.sortFields.lexicographicallyPrecedes(rhs.sortFields) {
        $0.utf8.lexicographicallyPrecedes($1.utf8)
      }
    }

    private var sortFields: [String] {
      [reactor, schema, appVersion]
        + metadata.keys.sorted().flatMap { [$0, metadata[$0]!] }
        + ["\u{0}", abstraction, timeBase, from, action, mutation, to]
    }
  }

  /// How the effects that sent a transition's mutations ended.
  public struct Outcomes: Sendable, Hashable {
    /// Mutations returned by `mutate` itself or sent by a stream: no effect.
    public var sync = 0
    /// Sent by an effect that finished.
    public var finished = 0
    /// Sent by an effect that was cancelled later.
    public var cancelled = 0
    /// Sent by an effect that failed later.
    public var failed = 0
    /// Sent by an effect still running when the trace ended.
    public var running = 0

    /// Creates counts.
    public init(
      sync: Int = 0, finished: Int = 0, cancelled: Int = 0, failed: Int = 0,
      running: Int = 0
    ) {
      self.sync = sync
      self.finished = finished
      self.cancelled = cancelled
      self.failed = failed
      self.running = running
    }

    /// The sum of all five: the transition's count.
    public var total: Int { sync + finished + cancelled + failed + running }
  }

  /// What the transition is grouped by.
  public var key: Key
  /// How many times it happened.
  public var count: Int
  /// In how many traces it happened (1 in a per-trace summary).
  public var traces: Int
  /// When it first happened, in nanoseconds on ``Key/timeBase``.
  public var first: Int64
  /// When it last happened, in nanoseconds on ``Key/timeBase``.
  public var last: Int64
  /// How the effects behind it ended; they add up to ``count``.
  public var outcomes: Outcomes

  /// Creates a line.
  public init(
    key: Key, count: Int, traces: Int, first: Int64, last: Int64, outcomes: Outcomes
  ) {
    self.key = key
    self.count = count
    self.traces = traces
    self.first = first
    self.last = last
    self.outcomes = outcomes
  }

  /// Adds `other` (a line with the same key) into this one, or returns `false` when a sum
  /// would overflow.
  public mutating func merge(_ other: TransitionSummary) -> Bool {
    var result = self
    func add(_ a: Int, _ b: Int) -> Int? {
      let (sum, overflow) = a.addingReportingOverflow(b)
      return overflow ? nil : sum
    }
    guard let count = add(count, other.count), let traces = add(traces, other.traces),
      let sync = add(outcomes.sync, other.outcomes.sync),
      let finished = add(outcomes.finished, other.outcomes.finished),
      let cancelled = add(outcomes.cancelled, other.outcomes.cancelled),
      let failed = add(outcomes.failed, other.outcomes.failed),
      let running = add(outcomes.running, other.outcomes.running)
    else { return false }
    result.count = count
    result.traces = traces
    result.outcomes = Outcomes(
      sync: sync, finished: finished, cancelled: cancelled, failed: failed, running: running)
    result.first = min(first, other.first)
    result.last = max(last, other.last)
    self = result
    return true
  }
}
