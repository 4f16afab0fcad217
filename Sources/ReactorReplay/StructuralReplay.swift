public import ReactorTracing

/// Replays a trace without any reactor code: rebuilds every state, checks hashes and causality,
/// and describes each event as a ``ReplayStep``.
///
/// ```swift
/// let replay = try StructuralReplay(path: "counter.trace.jsonl")
/// while let step = try replay.next() { print(step) }
/// for divergence in replay.divergences { print("diverged:", divergence) }
/// ```
///
/// It checks that every rebuilt state matches its recorded hash, that `seq` numbers are
/// consecutive from 1 (or from the window's first sequence), that every effect start and every
/// mutation refers to an action seen before it (or, in a windowed trace, before the window),
/// that every effect end and every mutation from an effect follows the effect's start. What it
/// finds is collected in ``divergences`` and reading goes on; only an unreadable trace throws.
/// A gap, where the recorder dropped events (``TraceEvent/Gap``), is counted in
/// ``droppedEventCount`` and is not a divergence: after it, causes that refer to what may have
/// been dropped are not checked.
/// Memory does not grow with the trace's length, except for the divergences found.
public final class StructuralReplay {
  /// The trace's header.
  public var header: TraceHeader { reader.header }
  /// The problems found so far.
  public private(set) var divergences: [StructuralDivergence] = []
  /// The state after the last step read, rebuilt from snapshots and diffs.
  public private(set) var currentState: TraceHeader.State
  /// How many steps were read so far.
  public private(set) var stepCount = 0
  /// The `seq` of the last step read, or `nil` before the first.
  public private(set) var lastSequence: Int?
  /// What the reader noticed so far without failing.
  ///
  /// A torn last line, a missing end line, effects still running when the recording
  /// stopped. Complete once every step was read.
  public var warnings: [TraceWarning] { reader.warnings }
  /// How many events the recorder dropped in the gaps read so far: the trace is incomplete
  /// when it is not 0.
  public private(set) var droppedEventCount = 0

  private let reader: TraceReader
  private var expectedSequence: Int
  private let isWindowed: Bool
  private var firstActionID: Int?
  private var lastActionID = 0
  private var firstEffectID: Int?
  private var lastEffectID = 0
  private var runningEffects: Set<Int> = []
  private var actions = LabelCache()

  /// Starts replaying the trace `reader` reads.
  /// - Parameter reader: A reader positioned before the first event, opened with
  ///   `verifyingStates: false`: the replay rebuilds and checks states itself so that a
  ///   mismatch is reported as a divergence and reading goes on.
  public init(reader: TraceReader) {
    self.reader = reader
    currentState = reader.header.initialState
    isWindowed = reader.header.window != nil
    expectedSequence = reader.header.window?.firstSequence ?? 1
    let actual = currentState.hash
    if actual != reader.header.initialStateHash {
      divergences.append(
        .stateMismatch(
          .stateMismatch(
            path: reader.path, line: 1, sequence: 0, expected: reader.header.initialStateHash,
            actual: actual)))
    }
  }

  /// Opens the trace file at `path`.
  /// - Parameter path: The trace file.
  /// - Throws: ``ReplayError/trace(_:)`` when it is not a readable trace.
  public convenience init(path: String) throws(ReplayError) {
    self.init(reader: try ReplayChecks.open(path, verifyingStates: false))
  }

  /// Replays a trace held in memory.
  /// - Parameter trace: The trace.
  /// - Throws: ``ReplayError/trace(_:)`` when it is not a readable trace.
  public convenience init(_ trace: Trace) throws(ReplayError) {
    self.init(reader: try ReplayChecks.open(trace, verifyingStates: false))
  }

  /// The next step, or `nil` after the last one.
  /// - Throws: ``ReplayError/trace(_:)`` for a malformed line or a diff that does not apply.
  public func next() throws(ReplayError) -> ReplayStep? {
    try next(describing: true)
  }

  /// Reads and checks every remaining event as ``next()`` does, without describing them as
  /// steps: for a caller that only wants the ``divergences``.
  /// - Throws: ``ReplayError/trace(_:)`` when the trace becomes unreadable.
  package func checkRemaining() throws(ReplayError) {
    while try next(describing: false) != nil {}
  }

  /// The next step; without `describing`, one without its cause and changes.
  private func next(describing: Bool) throws(ReplayError) -> ReplayStep? {
    guard let event = try ReplayChecks.next(reader) else { return nil }
    let line = reader.lineNumber
    stepCount += 1
    lastSequence = event.sequence
    // Lines of kinds the reader does not know hold the `seq` numbers they skipped.
    expectedSequence += reader.skippedBeforeLastEvent
    if event.sequence != expectedSequence {
      divergences.append(
        .sequenceGap(line: line, expected: expectedSequence, found: event.sequence))
    }
    expectedSequence = event.sequence + 1

    func step(
      _ kind: String, _ label: @autoclosure () -> String, _ cause: @autoclosure () -> String?
    )
      -> ReplayStep
    {
      guard describing else {
        return ReplayStep(
          sequence: event.sequence, line: line, time: event.time, kind: kind, label: "",
          cause: nil, changes: [])
      }
      return ReplayStep(
        sequence: event.sequence, line: line, time: event.time, kind: kind, label: label(),
        cause: cause(), changes: [])
    }
    switch event.kind {
    case .action(let action):
      if firstActionID == nil { firstActionID = action.id }
      lastActionID = max(lastActionID, action.id)
      actions.insert(action.label, for: action.id)
      let source = {
        switch action.source {
        case .sent: "sent"
        case .stream(let name): "stream \(name)"
        }
      }
      return step("action", action.label, source())
    case .effectStarted(let start):
      checkAction(start.action, sequence: event.sequence, line: line, what: "an effect")
      if firstEffectID == nil { firstEffectID = start.effect }
      lastEffectID = max(lastEffectID, start.effect)
      runningEffects.insert(start.effect)
      return step("effectStart", start.name ?? "effect \(start.effect)", actionText(start.action))
    case .effectEnded(let end):
      if runningEffects.remove(end.effect) == nil, !isBeforeWindow(end.effect, first: firstEffectID)
      {
        divergences.append(
          .brokenCause(
            sequence: event.sequence, line: line,
            reason: "ends effect \(end.effect), which did not start before it or already ended"))
      }
      let outcome = {
        switch end.outcome {
        case .finished: "finished"
        case .cancelled: "cancelled"
        case .failed(let error): "failed: \(error)"
        }
      }
      return step("effectEnd", "effect \(end.effect) \(outcome())", nil)
    case .mutation(let mutation):
      switch mutation.cause {
      case .action(let action):
        checkAction(action, sequence: event.sequence, line: line, what: "a mutation")
      case .effect(let effect, let action):
        checkAction(action, sequence: event.sequence, line: line, what: "a mutation")
        if effect > lastEffectID && !isBeforeWindow(effect, first: firstEffectID) {
          divergences.append(
            .brokenCause(
              sequence: event.sequence, line: line,
              reason: "is a mutation from effect \(effect), which did not start before it"))
        }
      case .stream:
        break
      }
      let cause = {
        switch mutation.cause {
        case .action(let action): self.actionText(action)
        case .effect(let effect, let action): "effect \(effect) of \(self.actionText(action))"
        case .stream(let name): "stream \(name)"
        }
      }
      var result = step("mutation", mutation.label, cause())
      result.changes = try rebuildState(
        after: mutation, sequence: event.sequence, line: line, describing: describing)
      return result
    case .streamEnded(let end):
      return step(
        "streamEnd", "stream \(end.stream) " + (end.error.map { "failed: \($0)" } ?? "finished"),
        nil)
    case .gap(let gap):
      droppedEventCount += gap.droppedEvents
      return step(
        "gap", "gap: \(gap.droppedEvents) events dropped, the trace is incomplete from here", nil)
    case .end(let end):
      return step("end", "end: \(end.observedEvents) observed, \(end.droppedEvents) dropped", nil)
    }
  }

  /// Reads every remaining step, handing each to `body`.
  /// - Parameter body: Called with each step in order.
  /// - Throws: ``ReplayError/trace(_:)`` when the trace becomes unreadable.
  public func forEachStep(_ body: (ReplayStep) throws(ReplayError) -> Void) throws(ReplayError) {
    while let step = try next() { try body(step) }
  }

  /// Reads the remaining steps and returns those whose `seq` is in `range`, stopping after
  /// the range.
  /// - Parameter range: The `seq` numbers wanted.
  /// - Returns: The steps in the range, in order.
  /// - Throws: ``ReplayError/trace(_:)`` when the trace becomes unreadable.
  public func steps(in range: ClosedRange<Int>) throws(ReplayError) -> [ReplayStep] {
    var steps: [ReplayStep] = []
    while let step = try next() {
      if range.contains(step.sequence) { steps.append(step) }
      if step.sequence >= range.upperBound { break }
    }
    return steps
  }

  /// Reads up to and including the step with `seq` `sequence` and returns the state after it:
  /// the initial state for 0.
  /// - Parameter sequence: The step's `seq`.
  /// - Returns: The state after the step, or `nil` when the trace ends before it.
  /// - Throws: ``ReplayError/trace(_:)`` when the trace becomes unreadable.
  public func state(at sequence: Int) throws(ReplayError) -> TraceHeader.State? {
    if sequence < expectedSequence && stepCount == 0 { return currentState }
    while let step = try next() {
      if step.sequence >= sequence { return currentState }
    }
    return nil
  }

  /// Replays the trace file at `path`, handing each step to `body`.
  /// - Parameters:
  ///   - path: The trace file.
  ///   - body: Called with each step in order.
  /// - Returns: The problems found; empty when the trace is consistent.
  /// - Throws: ``ReplayError/trace(_:)`` when the trace cannot be read.
  public static func run(
    path: String, onStep body: (ReplayStep) throws(ReplayError) -> Void = { _ in }
  ) throws(ReplayError) -> [StructuralDivergence] {
    let replay = try StructuralReplay(path: path)
    try replay.forEachStep(body)
    return replay.divergences
  }

  /// Whether `id` may belong to an event the trace does not hold: one before its window, or
  /// any after a gap.
  private func isBeforeWindow(_ id: Int, first: Int?) -> Bool {
    droppedEventCount > 0 || isWindowed && id < (first ?? Int.max)
  }

  private func checkAction(_ id: Int, sequence: Int, line: Int, what: String) {
    if id > lastActionID || id < 1 {
      if isBeforeWindow(id, first: firstActionID) { return }
      divergences.append(
        .brokenCause(
          sequence: sequence, line: line,
          reason: "is \(what) caused by action \(id), which was not seen before it"))
    }
  }

  private func actionText(_ id: Int) -> String {
    actions[id].map { "action \(id) (\($0))" } ?? "action \(id)"
  }

  private func rebuildState(
    after mutation: TraceEvent.Mutation, sequence: Int, line: Int, describing: Bool
  ) throws(ReplayError) -> [ReplayStep.Change] {
    let before = currentState
    do throws(TraceFormatError) {
      try currentState.apply(mutation.state)
    } catch {
      throw .trace(.malformedLine(path: reader.path, line: line, reason: error.description))
    }
    let actual = currentState.hash
    if actual != mutation.stateHash {
      divergences.append(
        .stateMismatch(
          .stateMismatch(
            path: reader.path, line: line, sequence: sequence, expected: mutation.stateHash,
            actual: actual)))
    }
    guard describing, case .json(let old) = before, case .json(let new) = currentState else {
      return []
    }
    return StateComparison.changes(from: old, to: new).map {
      ReplayStep.Change(path: $0.path, before: $0.before, after: $0.after)
    }
  }
}
