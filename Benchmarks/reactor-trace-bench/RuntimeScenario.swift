/// The runtime scenarios, doing the work ReactorKit's did when it was measured side by side
/// with this benchmark (`reactorkit-semantics.md`, "Measured side by side").
enum RuntimeScenario: String, CaseIterable, Sendable {
  /// Each action becomes one mutation (`.just`); one observer takes the value through `map`
  /// and `distinctUntilChanged` (`removeDuplicates`).
  case counterSync = "counter-sync"
  /// Each action becomes three mutations (`.sequence`: loading on, change, loading off); two
  /// observers take the value and the loading flag, each through `map` and
  /// `distinctUntilChanged`.
  case counterConcat = "counter-concat"
  /// The state holds 1,000 Ints and a counter; each mutation changes one Int and counts
  /// itself; one observer takes the counter through `map` and `distinctUntilChanged`.
  case stateLarge = "state-large"
  /// Ten observers each take the value through `map` and `distinctUntilChanged`.
  case fanout
  /// The stub is enabled: each action is only recorded by the stub; no state observer.
  case stub

  /// The number of actions sent.
  var actionCount: Int {
    switch self {
    case .counterSync, .stub: 1_000_000
    case .counterConcat, .fanout: 300_000
    case .stateLarge: 200_000
    }
  }

  /// The trace events one action produces: the action and its mutations (none for the
  /// stub, which bypasses the pipeline).
  var eventsPerAction: Int {
    switch self {
    case .counterSync, .stateLarge, .fanout: 2
    case .counterConcat: 4
    case .stub: 0
    }
  }

  /// The tracing modes the scenario runs in: every scenario untraced, in memory and to a
  /// file; the two the recording targets name also with the drop policy.
  var modes: [TracingMode] {
    switch self {
    case .counterSync, .stateLarge: TracingMode.allCases
    case .counterConcat, .fanout, .stub: [.untraced, .memory, .file]
    }
  }

  /// ReactorKit's throughput in actions per second, measured side by side with this benchmark.
  ///
  /// ReactorKit main 784aede on RxSwift 6.10.2, release build, on 2026-11-25 on the
  /// project's kind of machine, interleaved, 5 runs each, medians. Only the ratio to it
  /// carries across machines.
  var reactorKitThroughput: Double {
    switch self {
    case .counterSync: 157_634
    case .counterConcat: 64_918
    case .stateLarge: 162_979
    case .fanout: 121_225
    case .stub: 931_781
    }
  }

  /// The untraced target in actions per second: 20× ReactorKit for counter-sync, 10× for
  /// the others.
  var untracedTarget: Double {
    (self == .counterSync ? 20 : 10) * reactorKitThroughput
  }
}
