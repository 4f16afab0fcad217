import Foundation
import ReactorFleet
import ReactorStateMachines
import Testing

@testable import ReactorComparison

/// Seeded random numbers (SplitMix64): the same seed, the same fleet.
private struct SeededRandom: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Random walks over the transitions the example reactors make (fleet/model.summary.jsonl),
/// as fleet/generate_fleet.py draws them: each step chosen by the state it leaves, with
/// the weight the model gives it, its outcome drawn from the model's.
private struct FleetModel {
  /// Every edge of the model: its line, weight, the index of its target state.
  var lines: [TransitionSummary] = []
  var weights: [Int] = []
  var targets: [Int] = []
  /// Per state (by index): its edges' indices, and its reactor's initial state.
  var departures: [[Int]] = []
  var initial: [Int] = []
  /// The initial state of each reactor.
  var starts: [Int] = []

  init() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("fleet/model.summary.jsonl").path
    var set = SummarySet()
    try set.add(contentsOf: path)
    var states: [String: Int] = [:]
    func state(_ reactor: String, _ text: String) -> Int {
      if let index = states[reactor + "\u{0}" + text] { return index }
      states[reactor + "\u{0}" + text] = departures.count
      departures.append([])
      initial.append(-1)
      return departures.count - 1
    }
    var earliest: [String: (Int64, Int)] = [:]
    for line in set.summaries {
      let source = state(line.key.reactor, line.key.from)
      departures[source].append(lines.count)
      lines.append(line)
      weights.append(line.count)
      targets.append(state(line.key.reactor, line.key.to))
      if line.first < earliest[line.key.reactor]?.0 ?? .max {
        earliest[line.key.reactor] = (line.first, source)
      }
    }
    starts = earliest.keys.sorted().map { earliest[$0]!.1 }
    for (key, index) in states {
      let reactor = String(key.prefix { $0 != "\u{0}" })
      initial[index] = earliest[reactor]!.1
    }
  }

  /// An index drawn with probability proportional to its weight.
  private static func pick(_ weights: [Int], using random: inout SeededRandom) -> Int {
    var point = Int.random(in: 0..<weights.reduce(0, +), using: &random)
    for index in weights.indices {
      point -= weights[index]
      if point < 0 { return index }
    }
    return weights.count - 1
  }

  /// The summary lines of `walks` walks of 5 to 200 steps, each of a random reactor.
  func fleet(walks: Int, using random: inout SeededRandom) -> [TransitionSummary] {
    let stateWeights = departures.map { $0.map { weights[$0] } }
    let outcomeWeights = lines.map {
      [
        $0.outcomes.sync, $0.outcomes.finished, $0.outcomes.cancelled, $0.outcomes.failed,
        $0.outcomes.running,
      ]
    }
    var counts = [Int](repeating: 0, count: lines.count * 5)
    for _ in 0..<walks {
      var state = starts[Int.random(in: 0..<starts.count, using: &random)]
      for _ in 0..<Int.random(in: 5...200, using: &random) {
        guard !departures[state].isEmpty else {
          state = initial[state]
          continue
        }
        let edge = departures[state][Self.pick(stateWeights[state], using: &random)]
        counts[edge * 5 + Self.pick(outcomeWeights[edge], using: &random)] += 1
        state = targets[edge]
      }
    }
    var result: [TransitionSummary] = []
    for (edge, line) in lines.enumerated() {
      let drawn = Array(counts[edge * 5..<edge * 5 + 5])
      guard drawn.reduce(0, +) > 0 else { continue }
      var line = line
      line.count = drawn.reduce(0, +)
      line.outcomes = .init(
        sync: drawn[0], finished: drawn[1], cancelled: drawn[2], failed: drawn[3],
        running: drawn[4])
      result.append(line)
    }
    return result
  }
}

@Suite("FleetComparison on fleets drawn from one distribution")
struct FalsePositiveRateTests {
  @Test func atMostFiveOfAHundredPairsOfSameDistributionFleetsHaveAnyFinding() throws {
    let model = try FleetModel()
    var random = SeededRandom(state: 20_261_206)
    var pairsWithFindings = 0
    var tests = 0
    for _ in 0..<100 {
      let before = model.fleet(walks: 200, using: &random)
      let after = model.fleet(walks: 200, using: &random)
      let comparison = try FleetComparison(before: before, after: after)
      tests += comparison.testCount
      if comparison.hasChanges { pairsWithFindings += 1 }
    }
    #expect(tests > 100 * 50)
    #expect(pairsWithFindings <= 5)
  }

  @Test func aFailurePathTakenTwiceAsOftenIsFoundInFleetsOfTheSameSize() throws {
    var model = try FleetModel()
    var random = SeededRandom(state: 7)
    let before = model.fleet(walks: 2_000, using: &random)
    // GitHubSearch: a search that finds nothing, twice as often.
    let from = "isLoadingNextPage=false\nnextPage=nil\nquery=non-empty\nrepos=empty"
    let index = try #require(
      model.lines.firstIndex {
        $0.key.from == from && $0.key.mutation == "setRepos" && $0.key.to == from
      })
    model.weights[index] *= 2
    let after = model.fleet(walks: 2_000, using: &random)
    let comparison = try FleetComparison(before: before, after: after)
    let change = try #require(comparison.changes.first { $0.kind == .shift })
    #expect(change.transition.mutation == "setRepos")
    #expect(change.transition.target == from)
    #expect(change.ratio > 1.4)
  }
}
