/// The runtime scenarios, exactly as ReactorKit's were measured on this machine
/// (`reactorkit-semantics.md`, last table).
enum RuntimeScenario: String, CaseIterable, Sendable {
  /// Each action becomes one mutation (`.just`); one observer consumes every state.
  case counterSync = "counter-sync"
  /// Each action becomes three mutations (`.sequence`: loading on, change, loading off).
  case counterConcat = "counter-concat"
  /// The state holds 1,000 Ints; each mutation changes one of them.
  case stateLarge = "state-large"
  /// Ten observers each consume every state.
  case fanout
  /// The stub is enabled: each action is only recorded by the stub.
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

  /// ReactorKit 3.x on RxSwift 6.9.1, release build, this machine: actions per second.
  var reactorKitThroughput: Double {
    switch self {
    case .counterSync: 66_000
    case .counterConcat: 21_600
    case .stateLarge: 62_000
    case .fanout: 39_000
    case .stub: 458_000
    }
  }

  /// The untraced target in actions per second: 20× ReactorKit for counter-sync, 10× for
  /// the others.
  var untracedTarget: Double {
    switch self {
    case .counterSync: 1_300_000
    case .counterConcat: 216_000
    case .stateLarge: 620_000
    case .fanout: 390_000
    case .stub: 4_580_000
    }
  }
}
