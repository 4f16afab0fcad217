public import ReactorTracing

/// Replays a trace or a session without any reactor code: rebuilds every reactor's states,
/// checks their hashes and every cause, within a reactor and across reactors, and describes
/// each event as a ``ReplayStep``.
///
/// ```swift
/// let replay = try StructuralReplay(path: "counter.trace.jsonl")
/// while let step = try replay.next() { print(step) }
/// for divergence in replay.divergences { print("diverged:", divergence) }
/// ```
///
/// It reads through ``ReactorTracing/SessionReader``: a trace of one reactor (format 1.x) is a
/// session of one reactor, id 1, whose introduction is not a step. It checks every reference
/// a line makes, as docs/trace-format.md lists them: that every rebuilt state matches its
/// recorded hash; that `seq` numbers are consecutive from 1 (or from the window's first
/// sequence) and `t` never decreases; that every reactor is introduced once, with an id above
/// those before it, by a parent that is alive, `during` the parent's latest event; that
/// nothing happens in a reactor after its release; that a reactor's action and effect ids
/// increase; that every effect start, mutation and `publishedBy` names an action of its
/// reactor seen before it, every mutation from an effect (and every `publishedBy` effect) an
/// effect started before by that same action, every effect end a running effect; and that
/// every `from` (the origin of an action sent by another reactor, or of a stream element it
/// published) points at a live reactor, an action of it that came earlier and an effect of it
/// that action started. It follows every action and mutation back through its causes and
/// counts in ``causality`` those that reach a user action or a named external stream. What it
/// finds is collected in ``divergences`` and reading goes on; only an unreadable input throws.
///
/// Where the input may have lost events, before a window and in a gap
/// (``TraceEvent/Gap``, counted in ``droppedEventCount``, not a divergence), a reference may
/// name an id the input does not hold, but never one it holds later: such a reference named
/// the future, and is reported once the id appears. A jump's state must be the state of its
/// reactor recorded after the jump's target (unless the input lost that one), and the input's
/// version must be one that can hold a jump (1.4, or 2.2 for a session). Memory grows with the
/// reactors alive at once, plus 8 bytes per effect (which action started it) and, in an input
/// that can hold a jump, 16 per state set (to check a jump against its target), not with the
/// rest of the input, except for the divergences found.
public final class StructuralReplay {
  /// The session's header (for a trace of one reactor, built from its header).
  public var header: SessionHeader { reader.header }
  /// The problems found so far.
  public private(set) var divergences: [StructuralDivergence] = []
  /// How many steps were read so far.
  public private(set) var stepCount = 0
  /// The `seq` of the last step read, or `nil` before the first.
  public private(set) var lastSequence: Int?
  /// How many events the recorder dropped in the gaps read so far: the input is incomplete
  /// when it is not 0.
  public private(set) var droppedEventCount = 0
  /// How the actions and mutations read so far resolve through their causes.
  public private(set) var causality = SessionCausality()
  /// What the reader noticed so far without failing.
  ///
  /// A torn last line, a missing end line, effects still running when the recording
  /// stopped. Complete once every step was read.
  public var warnings: [TraceWarning] { reader.warnings }
  /// Whether steps and reports name the reactor of each event: the input is a session of
  /// many reactors (format 2.x), not a trace of one.
  public let namesReactors: Bool

  /// The state of a live reactor after the last step read, rebuilt from snapshots and diffs.
  /// - Parameter reactor: The reactor's id; 1, the only one, in a trace of one reactor.
  /// - Returns: Its state, or `nil` when it is not alive.
  public func currentState(of reactor: Int = 1) -> TraceHeader.State? {
    lanes[reactor]?.state
  }

  /// How many reactors were introduced so far, released ones included.
  public var introducedCount: Int { introducedTypes.count }

  /// The ids of the reactors introduced so far, released ones included, in order.
  public var introducedReactors: [Int] { introducedTypes.keys.sorted() }

  /// The introductions of the reactors alive after the last step read, by id.
  public var liveReactors: [Int: ReactorIntroduction] { reader.liveReactors }

  /// What a replay that found no divergence says of the input: `57 events; every state
  /// matches its hash and every cause is consistent`; for a session also how many reactors,
  /// and how many actions and mutations resolve to a user action or a named stream.
  public var matchSummary: String {
    let checked = "every state matches its hash and every cause is consistent"
    guard namesReactors else { return "\(stepCount) events; \(checked)" }
    let actions = causality.resolvedActions + causality.unresolvedActions
    let mutations = causality.resolvedMutations + causality.unresolvedMutations
    return "\(stepCount) events of \(introducedCount) reactors; \(checked); "
      + "\(causality.resolvedActions) of \(actions) actions and \(causality.resolvedMutations) of "
      + "\(mutations) mutations resolve to a user action or a named stream"
  }

  /// The reactor of a trace of one reactor, 1, live from the start; `nil` for a session,
  /// whose reactors are known as they are introduced.
  public var onlyReactor: Int? { namesReactors ? nil : 1 }

  /// Every live reactor with its state after the last step read, in the order of their ids.
  /// - Parameter sequence: The `seq` of the last step read, to report them at.
  /// - Returns: The states.
  public func liveStates(at sequence: Int) -> ReplayedStates {
    ReplayedStates(
      sequence: sequence,
      states: liveReactors.sorted { $0.key < $1.key }.compactMap { id, introduction in
        currentState(of: id).map { .init(introduction: introduction, state: $0) }
      }, namesReactors: namesReactors)
  }

  /// The type of a reactor introduced so far, released or not.
  /// - Parameter reactor: The reactor's id.
  /// - Returns: Its type, or `nil` when it was not introduced.
  public func reactorType(of reactor: Int) -> String? {
    introducedTypes[reactor]
  }

  /// ` of reactor 2` in a session, to follow what a report says of one reactor; empty for a
  /// trace of one reactor.
  /// - Parameter reactor: The reactor's id.
  /// - Returns: The phrase.
  public func ofReactor(_ reactor: Int) -> String {
    namesReactors ? " of reactor \(reactor)" : ""
  }

  /// What the replay knows of one live reactor.
  private struct Lane {
    var introduction: ReactorIntroduction
    var state: TraceHeader.State
    /// The action ids seen, and those that may be missing.
    var actionIDs = SeenIDs()
    /// The effect ids seen, each with the action that started it, and those that may be
    /// missing.
    var effectIDs = SeenIDs(storesValues: true)
    var runningEffects: Set<Int> = []
    /// Effects running at a gap: they may have ended in it.
    var mayHaveEnded: Set<Int> = []
    /// Effects whose start the input lost (before a window, in a gap) that ended.
    var endedUnseen: Set<Int> = []
    /// The `seq` of the reactor's latest event, its introduction included.
    var lastSequence: Int
    var actions: LabelCache
    /// The actions whose causes do not reach a user action or a named stream.
    var unresolvedActions: Set<Int> = []
    /// The hashes of its states, to check a jump's against its target's (kept only where the
    /// input's version can hold a jump).
    var states: RecordedStateHashes
  }

  private let reader: SessionReader
  private var lanes: [Int: Lane] = [:]
  private var introducedTypes: [Int: String] = [:]
  /// The largest reactor id introduced so far.
  private var lastReactor = 0
  /// In a window, the id of the first reactor introduced in it (not before it): reactors
  /// released before the window, which the input does not introduce, have smaller ids.
  private var firstReactorInWindow: Int?
  /// In a window, the largest reactor id a reference named that the input does not
  /// introduce (so released before the window) while no reactor was introduced in it yet.
  private var reactorClaim: SeenIDs.Claim?
  /// In a window, each reactor id a reference named as released before it, with the first
  /// such reference: an id the input introduces later (alive when the window starts) was not
  /// released, and the reference named the future (issue 40, found by the session fuzz).
  private var releasedClaims: [Int: SeenIDs.Claim] = [:]
  /// In a window, the `seq` of the last reactor introduced before it, as its base.
  private var lastBaseSequence = 0
  private var expectedSequence: Int?
  private var lastTime: Duration?
  private var isStarted = false

  /// Starts replaying the session or trace `reader` reads.
  /// - Parameter reader: A reader positioned before the first event, opened with
  ///   `verifyingStates: false`: the replay checks states itself and reports a mismatch as a
  ///   divergence.
  public init(reader: SessionReader) {
    self.reader = reader
    namesReactors = reader.namesReactors
  }

  /// Opens the session or trace at `path`.
  /// - Parameter path: The file.
  /// - Throws: ``ReplayError/trace(_:)`` when it is not readable.
  public convenience init(path: String) throws(ReplayError) {
    do throws(TraceReadError) {
      self.init(reader: try SessionReader(path: path, verifyingStates: false))
    } catch {
      throw .trace(error)
    }
  }

  /// Replays a trace of one reactor held in memory.
  /// - Parameter trace: The trace.
  /// - Throws: ``ReplayError/trace(_:)`` when it is not readable.
  public convenience init(_ trace: Trace) throws(ReplayError) {
    try self.init(bytes: trace.declaringItsJumps.serialized, name: "trace")
  }

  /// Replays a session held in memory.
  /// - Parameter session: The session.
  /// - Throws: ``ReplayError/trace(_:)`` when it is not readable.
  public convenience init(_ session: SessionTrace) throws(ReplayError) {
    try self.init(bytes: session.serialized, name: "session")
  }

  private convenience init(bytes: [UInt8], name: String) throws(ReplayError) {
    do throws(TraceReadError) {
      self.init(reader: try SessionReader(bytes: bytes, name: name, verifyingStates: false))
    } catch {
      throw .trace(error)
    }
  }

  /// Replays the session or trace at `path`, handing each step to `body`.
  /// - Parameters:
  ///   - path: The file.
  ///   - body: Called with each step in order.
  /// - Returns: The problems found; empty when the input is consistent.
  /// - Throws: ``ReplayError/trace(_:)`` when it cannot be read.
  public static func run(
    path: String, onStep body: (ReplayStep) throws(ReplayError) -> Void = { _ in }
  ) throws(ReplayError) -> [StructuralDivergence] {
    let replay = try StructuralReplay(path: path)
    try replay.forEachStep(body)
    return replay.divergences
  }

  /// The next step, or `nil` after the last one.
  /// - Throws: ``ReplayError/trace(_:)`` for a malformed line or a diff that does not apply.
  public func next() throws(ReplayError) -> ReplayStep? {
    try next(describing: true)
  }

  /// Reads and checks every remaining event as ``next()`` does, without describing them as
  /// steps: for a caller that only wants the ``divergences``.
  /// - Throws: ``ReplayError/trace(_:)`` when the input becomes unreadable.
  public func checkRemaining() throws(ReplayError) {
    while try next(describing: false) != nil {}
  }

  /// Reads every remaining step, handing each to `body`.
  /// - Parameter body: Called with each step in order.
  /// - Throws: ``ReplayError/trace(_:)`` when the input becomes unreadable.
  public func forEachStep(_ body: (ReplayStep) throws(ReplayError) -> Void) throws(ReplayError) {
    while let step = try next() { try body(step) }
  }

  /// Reads the remaining steps and returns those whose `seq` is in `range`, stopping after
  /// the range.
  /// - Parameter range: The `seq` numbers wanted.
  /// - Returns: The steps in the range, in order.
  /// - Throws: ``ReplayError/trace(_:)`` when the input becomes unreadable.
  public func steps(in range: ClosedRange<Int>) throws(ReplayError) -> [ReplayStep] {
    var steps: [ReplayStep] = []
    while let step = try next() {
      if range.contains(step.sequence) { steps.append(step) }
      if step.sequence >= range.upperBound { break }
    }
    return steps
  }

  /// Reads up to and including the step with `seq` `sequence` and returns a reactor's state
  /// after it: its initial state for 0.
  /// - Parameters:
  ///   - sequence: The step's `seq`.
  ///   - reactor: The reactor's id; 1, the only one, in a trace of one reactor.
  /// - Returns: The state after the step, or `nil` when the input ends before it or the
  ///   reactor is not alive there.
  /// - Throws: ``ReplayError/trace(_:)`` when the input becomes unreadable.
  public func state(at sequence: Int, of reactor: Int = 1) throws(ReplayError)
    -> TraceHeader.State?
  {
    if sequence == 0 && stepCount == 0 {
      try start()
      return currentState(of: reactor)
    }
    while let step = try next() {
      if step.sequence >= sequence { return currentState(of: reactor) }
    }
    return nil
  }

  /// Makes the reactor of a trace of one reactor live before the first step.
  ///
  /// It reads the introduction such a trace begins with (built from its header, with `seq` 0,
  /// not a step); a session's reactors are introduced by its steps. ``next()`` starts the
  /// replay when it was not started.
  /// - Throws: ``ReplayError/trace(_:)`` when the input is not readable.
  public func start() throws(ReplayError) {
    guard !isStarted else { return }
    isStarted = true
    guard !namesReactors, let event = try nextEvent(),
      case .introduced(let introduction) = event.kind
    else { return }
    introduce(introduction, sequence: event.sequence, line: reader.lineNumber)
  }

  private func nextEvent() throws(ReplayError) -> SessionEvent? {
    do throws(TraceReadError) {
      return try reader.next()
    } catch {
      throw .trace(error)
    }
  }

  /// The next step; without `describing`, one without its label, cause and changes.
  private func next(describing: Bool) throws(ReplayError) -> ReplayStep? {
    try start()
    guard let event = try nextEvent() else { return nil }
    let line = reader.lineNumber
    stepCount += 1
    lastSequence = event.sequence
    checkSequence(event.sequence, line: line)
    checkTime(event, line: line)
    return try step(for: event, line: line, describing: describing)
  }

  private func step(
    for event: SessionEvent, line: Int, describing: Bool
  ) throws(ReplayError) -> ReplayStep {
    var step = ReplayStep(
      sequence: event.sequence, line: line, time: event.time, kind: "", label: "", cause: nil,
      changes: [])
    func described(_ kind: String, _ label: @autoclosure () -> String) -> ReplayStep {
      step.kind = kind
      if describing { step.label = label() }
      return step
    }
    switch event.kind {
    case .introduced(let introduction):
      introduce(introduction, sequence: event.sequence, line: line)
      step.reactor = introduction.reactor
      if describing, let parent = introduction.parent {
        step.cause =
          "created by reactor \(parent)"
          + (introduction.createdDuring.map { " during event \($0)" } ?? "")
      }
      return described("reactor", introduction.type + (introduction.name.map { " '\($0)'" } ?? ""))
    case .released(let reactor):
      lanes[reactor] = nil
      step.reactor = reactor
      return described("release", "reactor \(reactor)")
    case .gap(let gap):
      droppedEventCount += gap.droppedEvents
      // Every live reactor may have lost events here: ids after its last ones, and the ends
      // of its running effects.
      for key in Array(lanes.keys) {
        guard var lane = lanes.removeValue(forKey: key) else { continue }
        lane.actionIDs.openMissing()
        lane.effectIDs.openMissing()
        lane.mayHaveEnded.formUnion(lane.runningEffects)
        lane.runningEffects.removeAll()
        // Its state after this gap is not known until its next mutation.
        lane.states.record(nil, at: event.sequence)
        lanes[key] = lane
      }
      return described(
        "gap", "gap: \(gap.droppedEvents) events dropped, the trace is incomplete from here")
    case .end(let end):
      return described("end", "end: \(end.observedEvents) observed, \(end.droppedEvents) dropped")
    case .reactor(let reactor, let kind):
      guard var lane = lanes.removeValue(forKey: reactor) else {
        // The reader refuses events of reactors that are not alive.
        preconditionFailure("an event of reactor \(reactor), which is not alive")
      }
      defer {
        lane.lastSequence = event.sequence
        lanes[reactor] = lane
      }
      try replay(
        kind, of: reactor, in: &lane, into: &step, sequence: event.sequence, line: line,
        describing: describing)
      if namesReactors { step.reactor = reactor }
      return step
    }
  }

  private func replay(
    _ kind: TraceEvent.Kind, of reactor: Int, in lane: inout Lane, into step: inout ReplayStep,
    sequence: Int, line: Int, describing: Bool
  ) throws(ReplayError) {
    let names = namesReactors
    func broken(_ reason: String) {
      divergences.append(
        .brokenCause(
          sequence: sequence, line: line,
          reason: names ? "of reactor \(reactor) \(reason)" : reason))
    }
    func checkAction(_ id: Int, what: String) {
      if !lane.actionIDs.admits(id, sequence: sequence, line: line) {
        broken("is \(what) caused by action \(id), which was not seen before it")
      }
    }
    func actionText(_ id: Int) -> String {
      lane.actions[id].map { "action \(id) (\($0))" } ?? "action \(id)"
    }
    // The lane's state, whose hash is `actual`, is the one after this event: noted, and a
    // divergence when the line recorded another.
    func settle(_ actual: TraceHash, expected: TraceHash) {
      lane.states.record(actual, at: sequence)
      if actual != expected {
        divergences.append(
          .stateMismatch(
            .stateMismatch(
              path: reader.path, line: line, sequence: sequence, expected: expected,
              actual: actual)))
      }
    }
    // What changed from `before` to the lane's state, for the step's description.
    func describeChanges(from before: TraceHeader.State) {
      if case .json(let old) = before, case .json(let new) = lane.state {
        step.changes = StateComparison.changes(from: old, to: new).map {
          ReplayStep.Change(path: $0.path, before: $0.before, after: $0.after)
        }
      }
    }
    switch kind {
    case .action(let action):
      // Its origin came before it: checked before its id is known.
      var resolved = true
      if let from = action.from {
        resolved = check(from, of: reactor, lane: &lane, sequence: sequence, line: line)
      }
      if let problem = lane.actionIDs.insert(action.id) {
        report(problem, what: "action", id: action.id, of: reactor)
      }
      lane.actions.insert(action.label, for: action.id)
      causality.count(resolved: resolved, isMutation: false)
      if !resolved { lane.unresolvedActions.insert(action.id) }
      step.kind = "action"
      guard describing else { return }
      step.label = action.label
      let source =
        switch action.source {
        case .sent: "sent"
        case .stream(let name): "stream \(name)"
        }
      step.cause = source + (action.from.map { " from \(describe($0))" } ?? "")
    case .effectStarted(let start):
      checkAction(start.action, what: "an effect")
      if let problem = lane.effectIDs.insert(start.effect, value: start.action) {
        report(problem, what: "effect", id: start.effect, of: reactor)
      }
      lane.runningEffects.insert(start.effect)
      step.kind = "effectStart"
      guard describing else { return }
      step.label = start.name ?? "effect \(start.effect)"
      step.cause = actionText(start.action)
    case .effectEnded(let end):
      if lane.runningEffects.remove(end.effect) == nil,
        lane.mayHaveEnded.remove(end.effect) == nil,
        lane.endedUnseen.contains(end.effect)
          || !lane.effectIDs.mayBeMissing(end.effect, sequence: sequence, line: line)
      {
        broken("ends effect \(end.effect), which did not start before it or already ended")
      } else if !lane.effectIDs.contains(end.effect) {
        // An effect whose start the input lost ends once.
        lane.endedUnseen.insert(end.effect)
      }
      step.kind = "effectEnd"
      guard describing else { return }
      let outcome =
        switch end.outcome {
        case .finished: "finished"
        case .cancelled: "cancelled"
        case .failed(let error): "failed: \(error)"
        }
      step.label = "effect \(end.effect) \(outcome)"
    case .mutation(let mutation):
      var resolved = true
      switch mutation.cause {
      case .action(let action):
        checkAction(action, what: "a mutation")
        resolved = !lane.unresolvedActions.contains(action)
      case .effect(let effect, let action):
        checkAction(action, what: "a mutation")
        if let reason = effectProblem(effect, of: action, in: &lane, sequence: sequence, line: line)
        {
          broken("is a mutation from effect \(effect), \(reason)")
        }
        resolved = !lane.unresolvedActions.contains(action)
      case .stream:
        if let from = mutation.from {
          resolved = check(from, of: reactor, lane: &lane, sequence: sequence, line: line)
        }
        // The reactor's own action (and effect) that published the element.
        if let publisher = mutation.publisher {
          resolved =
            check(
              TraceEvent.ReactorOrigin(
                reactor: reactor, action: publisher.action, effect: publisher.effect),
              of: reactor, lane: &lane, sequence: sequence, line: line, naming: "publishedBy")
            && resolved
        }
      }
      causality.count(resolved: resolved, isMutation: true)
      let before = lane.state
      do throws(TraceFormatError) {
        try lane.state.apply(mutation.state)
      } catch {
        throw .trace(.malformedLine(path: reader.path, line: line, reason: error.description))
      }
      settle(lane.state.hash, expected: mutation.stateHash)
      step.kind = "mutation"
      guard describing else { return }
      step.label = mutation.label
      step.cause =
        switch mutation.cause {
        case .action(let action): actionText(action)
        case .effect(let effect, let action): "effect \(effect) of \(actionText(action))"
        case .stream(let name):
          "stream \(name)" + (mutation.from.map { " from \(describe($0))" } ?? "")
        }
      describeChanges(from: before)
    case .streamEnded(let end):
      step.kind = "streamEnd"
      guard describing else { return }
      step.label = "stream \(end.stream) " + (end.error.map { "failed: \($0)" } ?? "finished")
    case .jump(let jump):
      if jump.target >= sequence {
        broken("jumps to the state after event \(jump.target), which is not before it")
      }
      let before = lane.state
      lane.state = jump.state
      let actual = lane.state.hash
      // The state after its target, as the live server takes it from the recording.
      if let problem = lane.states.problem(
        with: jump, at: sequence, actual: actual,
        reactor: names ? "reactor \(reactor)" : "the reactor")
      {
        broken("is " + problem)
      }
      settle(actual, expected: jump.stateHash)
      step.kind = "jump"
      guard describing else { return }
      step.label = "jump to event \(jump.target)"
      step.cause = jump.external.map { "external \($0)" } ?? "external"
      describeChanges(from: before)
    case .gap, .end:
      step.kind = "?"
    }
  }

  /// What is wrong with naming effect `effect`, started by action `action`, of a lane: that it
  /// did not start before, or that another action started it; `nil` when nothing is (or, where
  /// the input may have lost its start, nothing can be known).
  private func effectProblem(
    _ effect: Int, of action: Int, in lane: inout Lane, sequence: Int, line: Int
  ) -> String? {
    if let starter = lane.effectIDs.value(of: effect) {
      return starter == action ? nil : "which action \(starter) started, not action \(action)"
    }
    return lane.effectIDs.mayBeMissing(effect, sequence: sequence, line: line)
      ? nil : "which did not start before it"
  }

  /// Reports an id that does not increase, or one an earlier event named before it occurred.
  private func report(_ problem: SeenIDs.Problem, what: String, id: Int, of reactor: Int) {
    let of = ofReactor(reactor)
    switch problem {
    case .notIncreasing(let last):
      divergences.append(
        .brokenCause(
          sequence: lastSequence ?? 0, line: reader.lineNumber,
          reason: "is \(what) \(id)\(of), which does not follow \(what) \(last) (ids increase)"))
    case .namedBefore(let claim):
      divergences.append(
        .brokenCause(
          sequence: claim.sequence, line: claim.line,
          reason: "names \(what) \(claim.id)\(of) as one the input lost, but \(what) \(id) "
            + "comes later, at event \(lastSequence ?? 0): it names the future"))
    }
  }

  /// Checks an origin, reporting whether it resolves to a user action or a named stream.
  /// - Parameters:
  ///   - from: The origin.
  ///   - reactor: The reactor whose event names it.
  ///   - lane: That reactor's lane, taken out of ``lanes`` while its event is replayed (a
  ///     reactor may receive what it published itself).
  ///   - sequence: The event's `seq`, for a divergence.
  ///   - line: The event's line, for a divergence.
  ///   - member: How the line names the origin, for a divergence.
  /// - Returns: Whether the origin resolves; when not, a divergence was recorded or the
  ///   origin is lost before a window.
  private func check(
    _ from: TraceEvent.ReactorOrigin, of reactor: Int, lane: inout Lane, sequence: Int,
    line: Int, naming member: String = "from"
  ) -> Bool {
    func broken(_ reason: String) -> Bool {
      let text =
        member == "from"
        ? "comes from \(from), \(reason)"
        : "is published by \(from.action.map { "action \($0)" } ?? "no action")"
          + (from.effect.map { ", effect \($0)" } ?? "") + ", \(reason)"
      divergences.append(
        .brokenCause(
          sequence: sequence, line: line,
          reason: namesReactors || member == "from" ? "of reactor \(reactor) \(text)" : text))
      return false
    }
    guard from.reactor != reactor, var origin = lanes[from.reactor] else {
      if from.reactor == reactor {
        return resolve(from, in: &lane, sequence: sequence, line: line, broken: broken)
      }
      if introducedTypes.keys.contains(from.reactor) {
        return broken("which was released before it")
      }
      return isReleasedBeforeWindow(from.reactor, sequence: sequence, line: line)
        ? false : broken("which was not introduced before it")
    }
    let resolved = resolve(from, in: &origin, sequence: sequence, line: line, broken: broken)
    lanes[from.reactor] = origin
    return resolved
  }

  /// Checks an origin's action and effect in the origin's lane.
  private func resolve(
    _ from: TraceEvent.ReactorOrigin, in origin: inout Lane, sequence: Int, line: Int,
    broken: (String) -> Bool
  ) -> Bool {
    guard let action = from.action else { return broken("with no action of it") }
    guard origin.actionIDs.admits(action, sequence: sequence, line: line) else {
      return broken("whose action \(action) did not come before it")
    }
    if let effect = from.effect,
      let reason = effectProblem(effect, of: action, in: &origin, sequence: sequence, line: line)
    {
      return broken("whose effect \(effect) \(reason.dropFirst("which ".count))")
    }
    return !origin.unresolvedActions.contains(action) && origin.actionIDs.contains(action)
  }

  /// Whether a reactor the input does not introduce may be one released before its window.
  ///
  /// In a window, that is an id below that of every reactor introduced in it. While none is,
  /// the claim is noted, and checked when one is.
  private func isReleasedBeforeWindow(_ reactor: Int, sequence: Int, line: Int) -> Bool {
    guard reader.header.window != nil, reactor >= 1 else { return false }
    if reactor > lastReactor, releasedClaims[reactor] == nil {
      releasedClaims[reactor] = SeenIDs.Claim(id: reactor, sequence: sequence, line: line)
    }
    if let firstReactorInWindow { return reactor < firstReactorInWindow }
    if reactorClaim.map({ reactor > $0.id }) ?? true {
      reactorClaim = SeenIDs.Claim(id: reactor, sequence: sequence, line: line)
    }
    return true
  }

  private func describe(_ from: TraceEvent.ReactorOrigin) -> String {
    guard let origin = lanes[from.reactor] else { return from.description }
    let name = origin.introduction.name.map { " '\($0)'" } ?? ""
    var text = "reactor \(from.reactor)\(name)"
    if let action = from.action {
      text +=
        ", " + (origin.actions[action].map { "action \(action) (\($0))" } ?? "action \(action)")
    }
    if let effect = from.effect { text += ", effect \(effect)" }
    return text
  }

  private func introduce(_ introduction: ReactorIntroduction, sequence: Int, line: Int) {
    func broken(_ reason: String) {
      divergences.append(
        .brokenCause(
          sequence: sequence, line: line,
          reason: "introduces reactor \(introduction.reactor) \(reason)"))
    }
    let id = introduction.reactor
    let window = reader.header.window
    // Before a window's first event: a reactor alive when the window starts.
    let isBeforeWindow = window.map { sequence < $0.firstSequence } ?? false
    if id <= lastReactor {
      broken("after reactor \(lastReactor) (ids increase in the order of introduction)")
    }
    if let claim = releasedClaims.removeValue(forKey: id) {
      divergences.append(
        .brokenCause(
          sequence: claim.sequence, line: claim.line,
          reason: "names reactor \(id) as one released before the window, but reactor \(id) "
            + "is introduced at event \(sequence): it names the future"))
    }
    if window != nil, !isBeforeWindow, firstReactorInWindow == nil {
      firstReactorInWindow = id
      if let claim = reactorClaim, claim.id >= id {
        divergences.append(
          .brokenCause(
            sequence: claim.sequence, line: claim.line,
            reason: "names reactor \(claim.id) as one released before the window, but reactor "
              + "\(id) is introduced in it, at event \(sequence): it names the future"))
      }
      reactorClaim = nil
    }
    if let parent = introduction.parent {
      if let parentLane = lanes[parent] {
        if let during = introduction.createdDuring {
          let latest = parentLane.lastSequence
          // A parent whose latest event in the input came before the window may have had
          // later ones before it.
          let isLost =
            window.map { latest < $0.firstSequence && during >= latest && during < sequence }
            ?? false
          if during != latest, !isLost {
            broken(
              "during event \(during), which is not the latest event of its parent \(parent) "
                + "(event \(latest))")
          }
        }
      } else if introducedTypes.keys.contains(parent) {
        broken("with parent \(parent), which was released before it")
      } else if parent == id || !isReleasedBeforeWindow(parent, sequence: sequence, line: line) {
        broken("with parent \(parent), which was not introduced before it")
      }
    } else if let during = introduction.createdDuring {
      broken("during event \(during), without a parent")
    }
    if let during = introduction.createdDuring, during >= sequence {
      broken("during event \(during), which does not come before it")
    }
    lastReactor = max(lastReactor, id)
    introducedTypes[id] = introduction.type
    let actual = introduction.initialState.hash
    if actual != introduction.initialStateHash {
      divergences.append(
        .stateMismatch(
          .stateMismatch(
            path: reader.path, line: line, sequence: sequence,
            expected: introduction.initialStateHash, actual: actual)))
    }
    // The labels of the last 4096 actions of a trace of one reactor, of the last 64 of each
    // reactor of a session: memory that grows with the reactors alive, not the actions.
    var lane = Lane(
      introduction: introduction, state: introduction.initialState, lastSequence: sequence,
      actions: LabelCache(capacity: namesReactors ? 64 : 4096),
      states: RecordedStateHashes(version: reader.header.version))
    if isBeforeWindow || (window != nil && !namesReactors) {
      // What it did before the window is not in the input, nor its states before the
      // window's start.
      lane.actionIDs.openMissing()
      lane.effectIDs.openMissing()
      lane.states.record(nil, at: sequence)
      lane.states.record(actual, at: max(sequence, (window?.firstSequence ?? 1) - 1))
    } else {
      lane.states.record(actual, at: sequence)
    }
    lanes[id] = lane
  }

  private func checkSequence(_ sequence: Int, line: Int) {
    // A window starts with the reactors alive before it, at their introductions' `seq`.
    if expectedSequence == nil, let window = reader.header.window,
      sequence < window.firstSequence
    {
      if sequence <= lastBaseSequence {
        divergences.append(
          .sequenceGap(line: line, expected: lastBaseSequence + 1, found: sequence))
      }
      lastBaseSequence = sequence
      return
    }
    // Lines of kinds the reader does not know hold the `seq` numbers they skipped.
    let expected =
      (expectedSequence ?? reader.header.window?.firstSequence ?? 1)
      + reader.skippedBeforeLastEvent
    if sequence != expected {
      divergences.append(.sequenceGap(line: line, expected: expected, found: sequence))
    }
    expectedSequence = sequence + 1
  }

  /// Checks that `t` never decreases.
  private func checkTime(_ event: SessionEvent, line: Int) {
    if let lastTime, event.time < lastTime {
      divergences.append(
        .brokenCause(
          sequence: event.sequence, line: line,
          reason: "is at t \(nanoseconds(event.time)), before the event ahead of it "
            + "(t \(nanoseconds(lastTime))): t never decreases"))
    }
    lastTime = max(lastTime ?? event.time, event.time)
  }

  private func nanoseconds(_ time: Duration) -> String {
    TraceTime.nanoseconds(time).map(String.init) ?? "\(time)"
  }
}
