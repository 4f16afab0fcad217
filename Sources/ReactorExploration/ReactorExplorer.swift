import ConcurrencyExtras
public import ReactorCore
public import ReactorTracing

/// Explores the states a reactor reaches: breadth first from its initial state, every action
/// of an alphabet in every state where the reactor comes to rest, on a virtual clock.
///
/// A reactor cannot be copied in the middle of a run, so each run starts a new reactor,
/// sends it the shortest known script to a resting state (remembered as a parent pointer per
/// state, not as a path per state) and then the action to try, watching every `reduce` of
/// that last action. After each action the clock jumps from one sleeper's deadline to the
/// next until no effect runs (or the settle limit passes). Memory holds the states and the
/// transitions found; the runs themselves leave nothing behind.
///
/// ```swift
/// let explorer = ReactorExplorer(
///   reactor: "ReactorExamples.CounterReactor",
///   alphabet: [.increase, .decrease],
///   invariants: [ExplorationInvariant("value within limit") { $0.value <= 10 }]
/// ) { clock in CounterReactor(clock: clock, limit: 10) }
/// let exploration = try await explorer.explore(ExplorationOptions(maximumDepth: 12))
/// ```
@MainActor
public struct ReactorExplorer<R: Reactor> {
  private let reactor: String
  private let actions: [R.Action]
  private let alphabet: [Exploration.Action]
  private let invariants: [ExplorationInvariant<R.State>]
  private let make: @MainActor (any Clock<Duration>) -> R

  /// How many times the explorer yields to let woken effects run before it looks at the
  /// clock again.
  private static var yieldsPerRound: Int { 6 }
  /// How many rounds of yields an effect that waits on something other than the clock gets.
  private static var idleRounds: Int { 50 }

  /// An explorer.
  /// - Parameters:
  ///   - reactor: The reactor's type name, for reports.
  ///   - alphabet: The actions to try in every resting state, each with its encoding for
  ///     scripts; the label is the action's description, as traces write it.
  ///   - invariants: Properties every reached state must have.
  ///   - make: Builds a new reactor, with fakes for its dependencies, on the given clock.
  public init(
    reactor: String, alphabet: [(action: R.Action, value: JSONValue)],
    invariants: [ExplorationInvariant<R.State>] = [],
    make: @escaping @MainActor (any Clock<Duration>) -> R
  ) {
    self.reactor = reactor
    self.actions = alphabet.map(\.action)
    self.alphabet = alphabet.map {
      Exploration.Action(label: Self.label($0.action), value: $0.value)
    }
    self.invariants = invariants
    self.make = make
  }

  /// An explorer whose alphabet's actions are Encodable, so their encodings need not be
  /// given.
  public init(
    reactor: String, alphabet: [R.Action], invariants: [ExplorationInvariant<R.State>] = [],
    make: @escaping @MainActor (any Clock<Duration>) -> R
  ) where R.Action: Encodable {
    self.init(
      reactor: reactor,
      alphabet: alphabet.map { ($0, (try? JSONValueEncoder().encode($0)) ?? .null) },
      invariants: invariants, make: make)
  }

  /// Explores until every reachable state was explored or a bound of `options` stops it.
  ///
  /// Runs on the main serial executor, so that effects woken by the clock run in a
  /// deterministic order: it sets ConcurrencyExtras' process-wide
  /// `uncheckedUseMainSerialExecutor` while it runs and restores it after, so tests that
  /// explore in parallel with others using that setting should take the same gate they do.
  ///
  /// A trap in the reactor's code ends the process: no Swift code can catch it. Give
  /// `willRun` to learn, before each run, which script it sends — breadth first, so the first
  /// one that traps is a shortest crashing script; the CLI formats it into the report its
  /// trap handler prints.
  /// - Parameters:
  ///   - options: The bounds and the state identity.
  ///   - willRun: Called before each run with the script it sends from the initial state.
  /// - Returns: The states, transitions and broken invariants found, and what stopped it.
  /// - Throws: ``ExplorationError`` when the alphabet is empty, the state cannot be
  ///   encoded, or a run does not repeat.
  public func explore(
    _ options: ExplorationOptions = ExplorationOptions(),
    willRun: (@MainActor (ExplorationScript) -> Void)? = nil
  ) async throws(ExplorationError) -> Exploration {
    guard !actions.isEmpty else { throw .emptyAlphabet }
    guard R.State.self is any Encodable.Type else {
      throw .notEncodable(String(reflecting: R.State.self))
    }
    var search = Search(
      explorer: self, options: options, willRun: willRun,
      exploration: Exploration(
        reactor: reactor, alphabet: alphabet, identity: options.identity, states: [],
        transitions: [], invariants: invariants.map(\.name), violations: [],
        stopReason: .fixedPoint, runCount: 0,
        unsettledRunCount: 0))
    let wasSerial = uncheckedUseMainSerialExecutor
    uncheckedUseMainSerialExecutor = true
    defer { uncheckedUseMainSerialExecutor = wasSerial }
    try await search.run()
    return search.exploration
  }

  /// The label a trace gives a value: its description, cut to 200 characters.
  static func label<Value>(_ value: Value) -> String {
    let text = String(describing: value)
    guard text.count > 200 else { return text }
    return String(text.prefix(199)) + "…"
  }

  /// A breadth-first search in progress.
  @MainActor
  private struct Search {
    let explorer: ReactorExplorer
    let options: ExplorationOptions
    let willRun: (@MainActor (ExplorationScript) -> Void)?
    var exploration: Exploration
    private var index: [JSONValue: Int] = [:]
    private var transitionIndex: Set<TransitionKey> = []
    private var brokenInvariants: Set<String> = []

    private struct TransitionKey: Hashable {
      var source: Int
      var target: Int
      var mutation: String
      var action: Int
    }

    init(
      explorer: ReactorExplorer, options: ExplorationOptions,
      willRun: (@MainActor (ExplorationScript) -> Void)?, exploration: Exploration
    ) {
      self.explorer = explorer
      self.options = options
      self.willRun = willRun
      self.exploration = exploration
    }

    mutating func run() async throws(ExplorationError) {
      let started = ContinuousClock.now
      willRun?(ExplorationScript(steps: []))
      let initial = explorer.make(VirtualClock())
      let root = try intern(initial.initialState, depth: 0, reachedBy: nil)
      exploration.states[root].isSettled = true
      exploration.states[root].settledAt = .zero
      var queue = [root]
      var settledDepth = [0]
      var head = 0
      search: while head < queue.count {
        let source = queue[head]
        let depth = settledDepth[head]
        head += 1
        if let maximum = options.maximumDepth, depth >= maximum {
          exploration.stopReason = .depth(maximum)
          continue
        }
        let prefix = path(to: source)
        for action in explorer.actions.indices {
          if exploration.states.count >= options.maximumStates {
            exploration.stopReason = .states(options.maximumStates)
            break search
          }
          if let limit = options.timeLimit, started.duration(to: .now) >= limit {
            exploration.stopReason = .time(limit)
            break search
          }
          if let rested = try await expand(source, depth: depth, prefix: prefix, with: action) {
            queue.append(rested)
            settledDepth.append(depth + 1)
          }
        }
      }
    }

    /// The actions of the shortest known run that rests in `state`.
    private func path(to state: Int) -> [Int] {
      var actions: [Int] = []
      var current = exploration.states[state].settledBy
      while let step = current {
        actions.append(step.action)
        current = exploration.states[step.source].settledBy
      }
      return actions.reversed()
    }

    /// Runs a new reactor along `prefix` and then `action`; returns the state it rests in
    /// when no run rested there before.
    private mutating func expand(
      _ source: Int, depth: Int, prefix: [Int], with action: Int
    ) async throws(ExplorationError) -> Int? {
      if let willRun {
        willRun(exploration.script(then: Exploration.Step(source: source, action: action)))
      }
      let clock = VirtualClock()
      let reactor = explorer.make(clock)
      defer { clock.cancelSleepers() }
      for step in prefix {
        reactor.send(explorer.actions[step])
        _ = await ReactorExplorer.settle(reactor, on: clock, limit: options.settleLimit)
      }
      if !prefix.isEmpty {
        let reached = try identity(of: reactor.currentState)
        guard index[reached] == source else {
          let expected = exploration.states[source].value.serializedString
          throw .nondeterministic(
            script: prefix.map { exploration.alphabet[$0].label }.joined(separator: ", "),
            expected: expected, found: reached.serializedString)
        }
      }
      let monitor = ExpansionMonitor<R.Action, R.Mutation, R.State>()
      reactor.runtime.monitor = monitor
      reactor.send(explorer.actions[action])
      let isSettled = await ReactorExplorer.settle(reactor, on: clock, limit: options.settleLimit)
      reactor.runtime.monitor = nil
      exploration.runCount += 1
      if !isSettled { exploration.unsettledRunCount += 1 }
      let step = Exploration.Step(source: source, action: action)
      var previous = source
      for (mutation, state) in monitor.reductions {
        let target = try intern(state, depth: depth + 1, reachedBy: step)
        let key = TransitionKey(
          source: previous, target: target, mutation: ReactorExplorer.label(mutation),
          action: action)
        if transitionIndex.insert(key).inserted {
          exploration.transitions.append(
            Exploration.Transition(
              source: previous, target: target, mutation: key.mutation, action: action,
              firstSeen: step))
        }
        previous = target
      }
      guard !exploration.states[previous].isSettled else { return nil }
      exploration.states[previous].isSettled = true
      exploration.states[previous].settledBy = step
      exploration.states[previous].settledAt = clock.now.offset
      return previous
    }

    /// The index of `state`, added (and checked against the invariants) when new.
    private mutating func intern(
      _ state: R.State, depth: Int, reachedBy: Exploration.Step?
    ) throws(ExplorationError) -> Int {
      let value = try identity(of: state)
      if let existing = index[value] { return existing }
      let new = exploration.states.count
      exploration.states.append(
        Exploration.State(
          value: value, depth: depth, reachedBy: reachedBy, settledBy: nil, settledAt: nil,
          isSettled: false))
      index[value] = new
      for invariant in explorer.invariants
      where !brokenInvariants.contains(invariant.name) && !invariant.holds(state) {
        brokenInvariants.insert(invariant.name)
        exploration.violations.append(Exploration.Violation(invariant: invariant.name, state: new))
      }
      return new
    }

    private func identity(of state: R.State) throws(ExplorationError) -> JSONValue {
      guard let encodable = state as? any Encodable,
        let json = try? JSONValueEncoder().encode(encodable)
      else { throw .notEncodable(String(reflecting: R.State.self)) }
      return options.identity.identity(of: json)
    }
  }

  /// Lets the effects of the last action run to their end.
  ///
  /// Yields so that woken effects run, then moves the clock to the next sleeper's deadline, until no effect runs and no
  /// one sleeps. Returns `false` when the settle limit passed (or an effect waits on
  /// something other than the clock) first.
  static func settle(_ reactor: R, on clock: VirtualClock, limit: Duration) async -> Bool {
    let start = clock.now
    var idle = 0
    while true {
      for _ in 0..<yieldsPerRound { await Task.yield() }
      if let deadline = clock.nextDeadline {
        guard start.duration(to: deadline) <= limit else { return false }
        clock.advanceToNextDeadline()
        idle = 0
        continue
      }
      if reactor.runtime.runningEffectCount == 0 { return true }
      idle += 1
      if idle > idleRounds { return false }
    }
  }
}
