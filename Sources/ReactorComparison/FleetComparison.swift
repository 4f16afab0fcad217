import Foundation
public import ReactorFleet
public import ReactorStateMachines

/// What changed in behaviour between two sets of runs (two app versions, two fleets, two
/// corpora), per reactor type, beyond what chance explains.
///
/// Each side is transition summaries (``TransitionSummary``), added up per reactor type
/// over app versions, metadata and time. For every transition leaving a state that both
/// sides leave, its share of the transitions leaving that state is tested (two-sided;
/// Fisher's exact test when an expected count is below 5, else the pooled two-proportion
/// z-test): a transition seen on one side only is **added** or **removed** when that test is
/// significant, one seen on both a **shift**. For every transition seen on both sides, the
/// share of its effects that ended each way (failed, cancelled, …) is tested too. All tests
/// of the comparison are one family, corrected by Benjamini–Hochberg at ``alpha`` after
/// Tarone's trim (a test that could not reach significance whatever its counts does not
/// count). A transition leaving a state the other side never leaves is not tested: it is
/// added (or removed) when a significant added (removed) transition leads into that state,
/// else it is listed apart, in ``Reactor/oneSided``, as one the sizes cannot tell from
/// chance.
///
/// The per-state test is exact for runs that choose their next transition by the state
/// they are in (a Markov chain over the abstract states, as the generated fleets of
/// `fleet/generate_fleet.py` are): counts of transitions within one run are not
/// independent otherwise.
///
/// ```swift
/// let comparison = try FleetComparison(before: old, after: new, labels: ("3.1.4", "3.2.0"))
/// for change in comparison.changes { print(change) }
/// ```
public struct FleetComparison: Sendable {
  /// The comparison of one reactor type seen on both sides.
  public struct Reactor: Sendable {
    /// The reactor type, module-qualified.
    public var name: String
    /// The state abstraction both sides' lines use (``StateAbstraction/summaryText``).
    public var abstraction: String
    /// How many transitions the before side counts.
    public var beforeCount: Int
    /// How many transitions the after side counts.
    public var afterCount: Int
    /// Every transition of either side with its two counts, sorted.
    public var transitions: [TransitionCounts]
    /// The significant changes, ranked (``FleetComparison/changes``).
    public var changes: [TransitionChange]
    /// Transitions seen on one side only that are not significant, most frequent first.
    public var oneSided: [TransitionChange]
  }

  /// One transition's counts on the two sides.
  public struct TransitionCounts: Sendable, Hashable {
    /// The transition.
    public var transition: StateTransition
    /// How many times before.
    public var before: Int
    /// How many times after.
    public var after: Int
  }

  /// The false discovery rate held: a change is significant when its adjusted p-value is at
  /// most this.
  public let alpha: Double
  /// What the before side is called in reports (an app version, `before`).
  public let beforeLabel: String
  /// What the after side is called in reports.
  public let afterLabel: String
  /// The reactor types both sides hold, sorted.
  public let reactors: [Reactor]
  /// Reactor types only the before side holds.
  public let onlyBefore: [String]
  /// Reactor types only the after side holds.
  public let onlyAfter: [String]
  /// How many tests were made.
  public let testCount: Int
  /// How many of them could reach significance and were corrected for (Tarone's family).
  public let familyCount: Int

  /// Compares two sides' summary lines.
  ///
  /// - Parameters:
  ///   - before: The before side's lines, merged or not.
  ///   - after: The after side's lines.
  ///   - alpha: The false discovery rate to hold, between 0 and 1.
  ///   - labels: What to call the two sides in reports.
  /// - Throws: ``ComparisonError/abstractions(reactor:before:after:)`` when a reactor's
  ///   states are abstracted differently; ``ComparisonError/overflow(side:)``.
  public init(
    before: [TransitionSummary], after: [TransitionSummary], alpha: Double = 0.05,
    labels: (before: String, after: String) = ("before", "after")
  ) throws(ComparisonError) {
    self.alpha = alpha
    beforeLabel = labels.before
    afterLabel = labels.after
    let old = try Self.tally(before, side: labels.before)
    let new = try Self.tally(after, side: labels.after)
    onlyBefore = old.keys.filter { new[$0] == nil }.sorted()
    onlyAfter = new.keys.filter { old[$0] == nil }.sorted()
    var tests: [Pending] = []
    var plans: [Plan] = []
    for name in old.keys.filter({ new[$0] != nil }).sorted() {
      let (a, b) = (old[name]!, new[name]!)
      guard a.abstractions.count == 1, a.abstractions == b.abstractions else {
        throw .abstractions(
          reactor: name, before: a.abstractions.sorted(), after: b.abstractions.sorted())
      }
      plans.append(Plan(name: name, before: a, after: b, tests: Self.tests(a, b, into: &tests)))
    }
    let adjusted = FalseDiscovery.adjusted(
      pValues: tests.map(\.test.pValue), minimumPValues: tests.map(\.test.minimumPValue),
      alpha: alpha)
    testCount = tests.count
    familyCount = adjusted.count { $0 != nil }
    reactors = plans.map { plan in
      Self.reactor(plan, tests: tests, adjusted: adjusted, alpha: alpha)
    }
  }

  /// Every significant change of every reactor, ranked: most significant first, then the
  /// largest ratio.
  public var changes: [TransitionChange] {
    reactors.flatMap(\.changes).sorted(by: Self.ranks)
  }

  /// Whether anything changed significantly.
  public var hasChanges: Bool { reactors.contains { !$0.changes.isEmpty } }

  // MARK: - Counting

  /// One side's counts of one reactor type.
  struct Tally {
    var abstractions: Set<String> = []
    var counts: [StateTransition: TransitionSummary.Outcomes] = [:]
    var departures: [String: Int] = [:]
    var total = 0
  }

  private static func tally(
    _ lines: [TransitionSummary], side: String
  ) throws(ComparisonError) -> [String: Tally] {
    var result: [String: Tally] = [:]
    func add(_ a: Int, _ b: Int) throws(ComparisonError) -> Int {
      let (sum, overflow) = a.addingReportingOverflow(b)
      if overflow { throw .overflow(side: side) }
      return sum
    }
    for line in lines {
      // Taken out while it changes, so that changing it copies nothing.
      var tally = result.removeValue(forKey: line.key.reactor) ?? Tally()
      tally.abstractions.insert(line.key.abstraction)
      let transition = line.key.transition
      var outcomes = tally.counts[transition] ?? TransitionSummary.Outcomes()
      outcomes.sync = try add(outcomes.sync, line.outcomes.sync)
      outcomes.finished = try add(outcomes.finished, line.outcomes.finished)
      outcomes.cancelled = try add(outcomes.cancelled, line.outcomes.cancelled)
      outcomes.failed = try add(outcomes.failed, line.outcomes.failed)
      outcomes.running = try add(outcomes.running, line.outcomes.running)
      _ = try add(
        try add(try add(outcomes.sync, outcomes.finished), outcomes.cancelled),
        try add(outcomes.failed, outcomes.running))
      tally.counts[transition] = outcomes
      tally.departures[line.key.from] = try add(
        tally.departures[line.key.from] ?? 0, line.count)
      tally.total = try add(tally.total, line.count)
      result[line.key.reactor] = tally
    }
    return result
  }

  // MARK: - Testing

  /// The outcome kinds, in the order reports name them.
  static let outcomeKinds: [OutcomeKind] = [
    OutcomeKind(name: "failed") { $0.failed },
    OutcomeKind(name: "cancelled") { $0.cancelled },
    OutcomeKind(name: "running") { $0.running },
    OutcomeKind(name: "finished") { $0.finished },
    OutcomeKind(name: "sync") { $0.sync },
  ]

  /// An outcome kind: its name and how to read its count.
  struct OutcomeKind: Sendable {
    var name: String
    var count: @Sendable (TransitionSummary.Outcomes) -> Int
  }

  /// A test of the family, and what it is about.
  struct Pending {
    var test: ProportionTest
    var kind: TransitionChange.Kind
    var transition: StateTransition
    var outcome: String?
  }

  /// A reactor's data, with the indices of its tests in the family.
  struct Plan {
    var name: String
    var before: Tally
    var after: Tally
    var tests: Range<Int>
  }

  /// Appends the tests of one reactor to `tests`.
  private static func tests(_ a: Tally, _ b: Tally, into tests: inout [Pending]) -> Range<Int> {
    let start = tests.count
    for transition in Set(a.counts.keys).union(b.counts.keys).sorted(by: Self.orders) {
      let old = a.counts[transition]?.total ?? 0
      let new = b.counts[transition]?.total ?? 0
      let oldTotal = a.departures[transition.source] ?? 0
      let newTotal = b.departures[transition.source] ?? 0
      if oldTotal > 0 && newTotal > 0 {
        tests.append(
          Pending(
            test: ProportionTest(
              before: old, beforeTotal: oldTotal, after: new, afterTotal: newTotal),
            kind: old == 0 ? .added : new == 0 ? .removed : .shift, transition: transition))
      }
      guard let oldOutcomes = a.counts[transition], let newOutcomes = b.counts[transition]
      else { continue }
      // The kinds that happened, and that did not always happen: with two, one test says
      // it all (the rarer kind's).
      var kinds = outcomeKinds.filter { kind in
        let seen = kind.count(oldOutcomes) + kind.count(newOutcomes)
        return seen > 0 && seen < old + new
      }
      if kinds.count == 2 {
        let totals = kinds.map { $0.count(oldOutcomes) + $0.count(newOutcomes) }
        kinds = [totals[1] < totals[0] ? kinds[1] : kinds[0]]
      }
      for kind in kinds {
        tests.append(
          Pending(
            test: ProportionTest(
              before: kind.count(oldOutcomes), beforeTotal: old,
              after: kind.count(newOutcomes), afterTotal: new),
            kind: .outcome, transition: transition, outcome: kind.name))
      }
    }
    return start..<tests.count
  }

  /// A reactor's changes, from its tests' adjusted p-values.
  private static func reactor(
    _ plan: Plan, tests: [Pending], adjusted: [Double?], alpha: Double
  ) -> Reactor {
    let (a, b) = (plan.before, plan.after)
    func share(_ tally: Tally, _ transition: StateTransition) -> TransitionChange.Share {
      .init(
        count: tally.counts[transition]?.total ?? 0,
        total: tally.departures[transition.source] ?? 0)
    }
    var changes: [TransitionChange] = []
    var oneSided: [TransitionChange] = []
    var tested: Set<StateTransition> = []
    for index in plan.tests {
      let pending = tests[index]
      let q = adjusted[index]
      let isSignificant = q.map { $0 <= alpha } ?? false
      var change = TransitionChange(
        kind: pending.kind, reactor: plan.name, transition: pending.transition,
        outcome: pending.outcome, before: share(a, pending.transition),
        after: share(b, pending.transition), pValue: pending.test.pValue, qValue: q,
        isExact: pending.test.isExact, isSignificant: isSignificant)
      if let outcome = pending.outcome, let kind = outcomeKinds.first(where: { $0.name == outcome })
      {
        change.before = .init(
          count: kind.count(a.counts[pending.transition]!),
          total: a.counts[pending.transition]!.total)
        change.after = .init(
          count: kind.count(b.counts[pending.transition]!),
          total: b.counts[pending.transition]!.total)
      } else {
        tested.insert(pending.transition)
      }
      if isSignificant {
        changes.append(change)
      } else if pending.kind == .added || pending.kind == .removed {
        oneSided.append(change)
      }
    }
    // Transitions leaving a state the other side never leaves: added (removed) when a
    // significant added (removed) transition leads into the state, however indirectly.
    var untested = Set(a.counts.keys).union(b.counts.keys).subtracting(tested)
      .sorted(by: Self.orders)
    var entries: [String: StateTransition] = [:]
    for change in changes where change.kind == .added || change.kind == .removed {
      let side = change.kind == .added ? a : b
      if side.departures[change.transition.target] == nil, entries[change.transition.target] == nil
      {
        entries[change.transition.target] = change.transition
      }
    }
    var found = true
    while found {
      found = false
      for (position, transition) in untested.enumerated() {
        guard let entry = entries[transition.source] else { continue }
        let isAdded = a.counts[transition] == nil
        let other = isAdded ? a : b
        let cameFrom = (isAdded ? b : a)
        guard cameFrom.counts[entry] != nil else { continue }
        changes.append(
          TransitionChange(
            kind: isAdded ? .added : .removed, reactor: plan.name, transition: transition,
            before: share(a, transition), after: share(b, transition), pValue: nil,
            qValue: nil, isExact: false, isSignificant: true, through: entry))
        if other.departures[transition.target] == nil, entries[transition.target] == nil {
          entries[transition.target] = entry
        }
        untested.remove(at: position)
        found = true
        break
      }
    }
    for transition in untested {
      let isAdded = a.counts[transition] == nil
      oneSided.append(
        TransitionChange(
          kind: isAdded ? .added : .removed, reactor: plan.name, transition: transition,
          before: share(a, transition), after: share(b, transition), pValue: nil,
          qValue: nil, isExact: false, isSignificant: false))
    }
    oneSided.sort {
      let (left, right) = (
        max($0.before.count, $0.after.count), max($1.before.count, $1.after.count)
      )
      return left != right ? left > right : Self.orders($0.transition, $1.transition)
    }
    let all = Set(a.counts.keys).union(b.counts.keys).sorted(by: Self.orders)
    return Reactor(
      name: plan.name, abstraction: a.abstractions.first!, beforeCount: a.total,
      afterCount: b.total,
      transitions: all.map {
        TransitionCounts(
          transition: $0, before: a.counts[$0]?.total ?? 0, after: b.counts[$0]?.total ?? 0)
      },
      changes: changes.sorted(by: ranks), oneSided: oneSided)
  }

  /// Ranks changes: tested ones by how significant (adjusted p-value below 0.001, below
  /// 0.01, above), then by how far the ratio is from 1 (added and removed first); then the
  /// ones that follow from them, most frequent first.
  static func ranks(_ lhs: TransitionChange, _ rhs: TransitionChange) -> Bool {
    func level(_ change: TransitionChange) -> Int {
      guard let q = change.qValue else { return change.pValue == nil ? 3 : 4 }
      return q < 0.001 ? 0 : q < 0.01 ? 1 : 2
    }
    if level(lhs) != level(rhs) { return level(lhs) < level(rhs) }
    let (l, r) = (size(lhs), size(rhs))
    if l != r { return l > r }
    if lhs.qValue != rhs.qValue { return (lhs.qValue ?? 1) < (rhs.qValue ?? 1) }
    if lhs.reactor != rhs.reactor {
      return lhs.reactor.utf8.lexicographicallyPrecedes(rhs.reactor.utf8)
    }
    if lhs.transition != rhs.transition { return orders(lhs.transition, rhs.transition) }
    return (lhs.outcome ?? "").utf8.lexicographicallyPrecedes((rhs.outcome ?? "").utf8)
  }

  /// How large a change is: how far its ratio is from 1, in either direction (the count
  /// for one that was not tested).
  private static func size(_ change: TransitionChange) -> Double {
    if change.pValue == nil { return Double(max(change.before.count, change.after.count)) }
    let ratio = change.ratio
    if ratio == 0 || ratio.isInfinite { return .infinity }
    return abs(log(ratio))
  }

  /// Orders transitions by their texts' UTF-8 bytes: source, action, mutation, target.
  static func orders(_ lhs: StateTransition, _ rhs: StateTransition) -> Bool {
    [lhs.source, lhs.action, lhs.mutation, lhs.target].lexicographicallyPrecedes(
      [rhs.source, rhs.action, rhs.mutation, rhs.target]
    ) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }
}
