import Foundation
import ReactorFleet
import ReactorStateMachines
import ReactorTracing
import Testing

@testable import ReactorComparison

/// A summary line of the test reactor: `count` times from `from` by `action` to `to`.
func line(
  _ from: String, _ action: String, _ to: String, count: Int, failed: Int = 0,
  reactor: String = "App.SearchReactor", abstraction: String = "fields:phase=value",
  appVersion: String = ""
) -> TransitionSummary {
  TransitionSummary(
    key: .init(
      reactor: reactor, schema: "s", appVersion: appVersion, metadata: [:],
      abstraction: abstraction, timeBase: "trace", from: "phase=" + from, action: action,
      mutation: "set" + to.prefix(1).uppercased() + to.dropFirst(), to: "phase=" + to),
    count: count, traces: 1, first: 0, last: 0,
    outcomes: .init(finished: count - failed, failed: failed))
}

@Suite("FleetComparison: what changed beyond chance")
struct FleetComparisonTests {
  /// A search that mostly finds results, sometimes nothing, rarely fails.
  private func searches(results: Int, empty: Int, failure: Int = 0, retry: Int = 0)
    -> [TransitionSummary]
  {
    var lines = [
      line("idle", "search", "loading", count: results + empty + failure + retry),
      line("loading", "load", "results", count: results),
      line("loading", "load", "empty", count: empty),
      line("results", "clear", "idle", count: results),
      line("empty", "clear", "idle", count: empty),
    ]
    if failure > 0 { lines.append(line("loading", "load", "failure", count: failure)) }
    if retry > 0 { lines.append(line("loading", "load", "retrying", count: retry)) }
    return lines
  }

  @Test func aShiftOfOneAndAHalfTimesOnATransitionSeenFiveHundredTimesIsFound() throws {
    let comparison = try FleetComparison(
      before: searches(results: 4_500, empty: 500), after: searches(results: 4_250, empty: 750))
    let change = try #require(comparison.changes.first)
    #expect(comparison.changes.count == 2)
    #expect(change.kind == .shift)
    #expect(change.transition.target == "phase=empty")
    #expect(abs(change.ratio - 1.5) < 1e-9)
    #expect(change.before == .init(count: 500, total: 5_000))
    #expect(change.after == .init(count: 750, total: 5_000))
    #expect(try #require(change.qValue) < 0.001)
    #expect(!change.isExact)
    // The other side of the same state moved too.
    #expect(comparison.changes[1].transition.target == "phase=results")
  }

  @Test func anAddedTransitionAtOneInAThousandOfTenThousandEventsIsFound() throws {
    let comparison = try FleetComparison(
      before: searches(results: 4_500, empty: 500),
      after: searches(results: 4_490, empty: 500, failure: 10))
    let added = try #require(comparison.changes.first { $0.kind == .added })
    #expect(added.transition.target == "phase=failure")
    #expect(added.before == .init(count: 0, total: 5_000))
    #expect(added.after == .init(count: 10, total: 5_000))
    #expect(added.isExact)
    #expect(try #require(added.qValue) <= 0.05)
    #expect(comparison.hasChanges)
  }

  @Test func aRemovedTransitionSeenFiftyTimesBeforeIsFound() throws {
    let comparison = try FleetComparison(
      before: searches(results: 4_450, empty: 500, failure: 50),
      after: searches(results: 4_500, empty: 500))
    let removed = try #require(comparison.changes.first)
    #expect(removed.kind == .removed)
    #expect(removed.transition.target == "phase=failure")
    #expect(removed.before.count == 50)
    #expect(removed.ratio == 0)
    #expect(comparison.reactors[0].oneSided.isEmpty)
  }

  @Test func aRareTransitionOnOneSideOnlyIsListedApartAsNotSignificant() throws {
    let comparison = try FleetComparison(
      before: searches(results: 4_500, empty: 500),
      after: searches(results: 4_500, empty: 500, failure: 2))
    #expect(!comparison.hasChanges)
    let apart = try #require(comparison.reactors[0].oneSided.first)
    #expect(apart.kind == .added)
    #expect(!apart.isSignificant)
    #expect(apart.after.count == 2)
    #expect(comparison.report.contains { $0.hasPrefix("1 transition seen on one side only") })
  }

  @Test func effectsThatNowFailMoreOftenAreAnOutcomeChange() throws {
    var before = searches(results: 1_000, empty: 100)
    var after = searches(results: 1_000, empty: 100)
    before[1] = line("loading", "load", "results", count: 1_000, failed: 20)
    after[1] = line("loading", "load", "results", count: 1_000, failed: 60)
    let comparison = try FleetComparison(before: before, after: after)
    let change = try #require(comparison.changes.first)
    #expect(comparison.changes.count == 1)
    #expect(change.kind == .outcome)
    #expect(change.outcome == "failed")
    #expect(abs(change.ratio - 3) < 1e-9)
    #expect(
      comparison.line(for: change).contains(
        "the effects of setResults ← load leaving {phase=loading} fail 3.0× as often, 20 of 1,000 → 60 of 1,000"
      ))
  }

  @Test func transitionsLeavingANewStateAreAddedThroughTheTransitionIntoIt() throws {
    let comparison = try FleetComparison(
      before: searches(results: 4_500, empty: 500),
      after: searches(results: 4_300, empty: 500, retry: 200)
        + [line("retrying", "load", "results", count: 200)])
    let added = comparison.changes.filter { $0.kind == .added }
    #expect(added.count == 2)
    let following = try #require(added.first { $0.transition.source == "phase=retrying" })
    #expect(following.isSignificant)
    #expect(following.pValue == nil)
    #expect(following.through?.target == "phase=retrying")
    #expect(comparison.line(for: following).contains("through setRetrying ← load"))
  }

  @Test func twoSidesAbstractedDifferentlyAreRefusedNamingTheReactor() {
    #expect(throws: ComparisonError.self) {
      try FleetComparison(
        before: [line("idle", "search", "loading", count: 1)],
        after: [line("idle", "search", "loading", count: 1, abstraction: "whole")])
    }
  }

  @Test func theJSONListsEachChangeFlatWithItsCountsAndPValues() throws {
    let comparison = try FleetComparison(
      before: searches(results: 4_450, empty: 500, failure: 50),
      after: searches(results: 4_500, empty: 500), labels: ("3.1.4", "3.2.0"))
    let json = comparison.json
    #expect(json["changed"] == .bool(true))
    #expect(json["before"]?["label"] == .string("3.1.4"))
    let change = try #require(json["changes"]?.arrayValue?.first)
    #expect(change["kind"] == .string("removed"))
    #expect(change["to"] == .string("phase=failure"))
    #expect(change["before"]?["count"] == .int(50))
    #expect(change["ratio"] == .double(0))
    #expect(change["test"] == .string("fisher"))
    guard case .double(let q)? = change["q"] else {
      Issue.record("no q-value in \(change)")
      return
    }
    #expect(q < 0.001)
  }
}
