public import ReactorTracing

/// Replays a session without any reactor code: rebuilds every reactor's states, checks their
/// hashes and every cause, within a reactor and across reactors, and describes each event.
///
/// ```swift
/// let replay = try StructuralSessionReplay(path: "taskapp.session.jsonl")
/// while let step = try replay.next() { print(step) }
/// for divergence in replay.divergences { print("diverged:", divergence) }
/// print(replay.causality)
/// ```
///
/// Within each reactor it checks what ``StructuralReplay`` checks in a trace of one reactor.
/// Across reactors it checks that every reactor is introduced once, by a parent that is alive
/// and during an earlier event, that nothing happens in a reactor after its release, and that
/// every `from` (the origin of an action sent by another reactor, or of a stream element it
/// published) points at a live reactor and at an action and an effect of it that came
/// earlier. It also follows every action and mutation back through its causes, and counts in
/// ``causality`` those that reach a user action or a named external stream. Reading goes on
/// after a finding; only an unreadable session throws. Memory grows with the reactors alive
/// at once, not with the session's length.
public final class StructuralSessionReplay {
  /// The session's header.
  public var header: SessionHeader { reader.header }
  /// The problems found so far.
  public private(set) var divergences: [StructuralDivergence] = []
  /// How many steps were read so far.
  public private(set) var stepCount = 0
  /// How many events the recorder dropped in the gaps read so far.
  public private(set) var droppedEventCount = 0
  /// How the actions and mutations read so far resolve through their causes.
  public private(set) var causality = SessionCausality()
  /// What the reader noticed so far without failing.
  public var warnings: [TraceWarning] { reader.warnings }

  /// The state of a live reactor after the last step read.
  /// - Parameter reactor: The reactor's id.
  /// - Returns: Its state, or `nil` when it is not alive.
  public func currentState(of reactor: Int) -> TraceHeader.State? {
    lanes[reactor]?.state
  }

  /// How many reactors were introduced so far, released ones included.
  public var introducedCount: Int { introduced.count }

  /// The introductions of the reactors alive after the last step read, by id.
  public var liveReactors: [Int: ReactorIntroduction] { reader.liveReactors }

  /// What the replay knows of one live reactor.
  private struct Lane {
    var introduction: ReactorIntroduction
    var state: TraceHeader.State
    var lastAction = 0
    var lastEffect = 0
    var runningEffects: Set<Int> = []
    var actions = LabelCache(capacity: 64)
    /// The actions whose causes do not reach a user action or a named stream.
    var unresolvedActions: Set<Int> = []
  }

  private let reader: SessionReader
  /// Whether events a cause names may be missing: after a gap, or anywhere in a window (they
  /// may have come before it).
  private var mayMissEvents: Bool { droppedEventCount > 0 || reader.header.window != nil }
  /// In a window, the `seq` of the last reactor introduced before it, as its base.
  private var lastBaseSequence = 0
  private var lanes: [Int: Lane] = [:]
  private var introduced: Set<Int> = []
  private var expectedSequence: Int?
  private var lastSequence = 0

  /// Starts replaying the session `reader` reads.
  /// - Parameter reader: A reader positioned before the first event, opened with
  ///   `verifyingStates: false`: the replay checks states itself and reports a mismatch as a
  ///   divergence.
  public init(reader: SessionReader) {
    self.reader = reader
  }

  /// Opens the session (or trace of one reactor) at `path`.
  /// - Throws: ``ReplayError/trace(_:)`` when it is not readable.
  public convenience init(path: String) throws(ReplayError) {
    do throws(TraceReadError) {
      self.init(reader: try SessionReader(path: path, verifyingStates: false))
    } catch {
      throw .trace(error)
    }
  }

  /// Replays a session held in memory.
  /// - Throws: ``ReplayError/trace(_:)`` when it is not readable.
  public convenience init(_ session: SessionTrace) throws(ReplayError) {
    do throws(TraceReadError) {
      self.init(reader: try SessionReader(bytes: session.serialized, verifyingStates: false))
    } catch {
      throw .trace(error)
    }
  }

  /// Replays the session at `path` to its end.
  /// - Returns: The replay, with its divergences, warnings and causality.
  /// - Throws: ``ReplayError/trace(_:)`` when the session cannot be read.
  public static func run(path: String) throws(ReplayError) -> StructuralSessionReplay {
    let replay = try StructuralSessionReplay(path: path)
    while try replay.next() != nil {}
    return replay
  }

  /// The next step, or `nil` after the last one.
  /// - Throws: ``ReplayError/trace(_:)`` for a malformed line or a diff that does not apply.
  public func next() throws(ReplayError) -> SessionReplayStep? {
    let event: SessionEvent
    do throws(TraceReadError) {
      guard let next = try reader.next() else { return nil }
      event = next
    } catch {
      throw .trace(error)
    }
    let line = reader.lineNumber
    stepCount += 1
    checkSequence(event.sequence, line: line)
    func step(_ kind: String, _ label: String, _ cause: String?) -> ReplayStep {
      ReplayStep(
        sequence: event.sequence, line: line, time: event.time, kind: kind, label: label,
        cause: cause, changes: [])
    }
    switch event.kind {
    case .introduced(let introduction):
      introduce(introduction, sequence: event.sequence, line: line)
      var cause: String?
      if let parent = introduction.parent {
        cause =
          "created by reactor \(parent)"
          + (introduction.createdDuring.map { " during event \($0)" } ?? "")
      }
      let name = introduction.name.map { " '\($0)'" } ?? ""
      return SessionReplayStep(
        reactor: introduction.reactor, step: step("reactor", introduction.type + name, cause))
    case .released(let reactor):
      lanes[reactor] = nil
      return SessionReplayStep(reactor: reactor, step: step("release", "reactor \(reactor)", nil))
    case .gap(let gap):
      droppedEventCount += gap.droppedEvents
      for key in lanes.keys { lanes[key]?.runningEffects.removeAll() }
      return SessionReplayStep(
        reactor: nil,
        step: step(
          "gap", "gap: \(gap.droppedEvents) events dropped, the session is incomplete from here",
          nil))
    case .end(let end):
      return SessionReplayStep(
        reactor: nil,
        step: step("end", "end: \(end.observedEvents) observed, \(end.droppedEvents) dropped", nil))
    case .reactor(let reactor, let kind):
      guard var lane = lanes.removeValue(forKey: reactor) else {
        // The reader refuses events of reactors that are not alive.
        preconditionFailure("an event of reactor \(reactor), which is not alive")
      }
      defer { lanes[reactor] = lane }
      let result = try replay(kind, of: reactor, in: &lane, sequence: event.sequence, line: line)
      return SessionReplayStep(
        reactor: reactor, step: step(result.kind, result.label, result.cause)
      )
      .with(changes: result.changes)
    }
  }

  /// What one reactor's event is, as a step.
  private struct Described {
    var kind: String
    var label: String
    var cause: String?
    var changes: [ReplayStep.Change] = []
  }

  private func replay(
    _ kind: TraceEvent.Kind, of reactor: Int, in lane: inout Lane, sequence: Int, line: Int
  ) throws(ReplayError) -> Described {
    func broken(_ reason: String) {
      divergences.append(
        .brokenCause(sequence: sequence, line: line, reason: "of reactor \(reactor) \(reason)"))
    }
    func checkAction(_ id: Int, what: String) {
      if id < 1 || id > lane.lastAction, !mayMissEvents {
        broken("is \(what) caused by action \(id), which was not seen before it")
      }
    }
    func actionText(_ id: Int) -> String {
      lane.actions[id].map { "action \(id) (\($0))" } ?? "action \(id)"
    }
    switch kind {
    case .action(let action):
      lane.lastAction = max(lane.lastAction, action.id)
      lane.actions.insert(action.label, for: action.id)
      var resolved = true
      if let from = action.from {
        resolved = check(from, of: reactor, lane: lane, sequence: sequence, line: line)
      }
      causality.count(resolved: resolved, isMutation: false)
      if !resolved { lane.unresolvedActions.insert(action.id) }
      let source =
        switch action.source {
        case .sent: "sent"
        case .stream(let name): "stream \(name)"
        }
      return Described(
        kind: "action", label: action.label,
        cause: source + (action.from.map { " from \(describe($0))" } ?? ""))
    case .effectStarted(let start):
      checkAction(start.action, what: "an effect")
      lane.lastEffect = max(lane.lastEffect, start.effect)
      lane.runningEffects.insert(start.effect)
      return Described(
        kind: "effectStart", label: start.name ?? "effect \(start.effect)",
        cause: actionText(start.action))
    case .effectEnded(let end):
      if lane.runningEffects.remove(end.effect) == nil, !mayMissEvents {
        broken("ends effect \(end.effect), which did not start before it or already ended")
      }
      let outcome =
        switch end.outcome {
        case .finished: "finished"
        case .cancelled: "cancelled"
        case .failed(let error): "failed: \(error)"
        }
      return Described(kind: "effectEnd", label: "effect \(end.effect) \(outcome)")
    case .mutation(let mutation):
      var resolved = true
      let cause: String
      switch mutation.cause {
      case .action(let action):
        checkAction(action, what: "a mutation")
        resolved = !lane.unresolvedActions.contains(action)
        cause = actionText(action)
      case .effect(let effect, let action):
        checkAction(action, what: "a mutation")
        if effect > lane.lastEffect, !mayMissEvents {
          broken("is a mutation from effect \(effect), which did not start before it")
        }
        resolved = !lane.unresolvedActions.contains(action)
        cause = "effect \(effect) of \(actionText(action))"
      case .stream(let name):
        if let from = mutation.from {
          resolved = check(from, of: reactor, lane: lane, sequence: sequence, line: line)
        }
        cause = "stream \(name)" + (mutation.from.map { " from \(describe($0))" } ?? "")
      }
      causality.count(resolved: resolved, isMutation: true)
      let before = lane.state
      do throws(TraceFormatError) {
        try lane.state.apply(mutation.state)
      } catch {
        throw .trace(.malformedLine(path: reader.path, line: line, reason: error.description))
      }
      let actual = lane.state.hash
      if actual != mutation.stateHash {
        divergences.append(
          .stateMismatch(
            .stateMismatch(
              path: reader.path, line: line, sequence: sequence, expected: mutation.stateHash,
              actual: actual)))
      }
      var changes: [ReplayStep.Change] = []
      if case .json(let old) = before, case .json(let new) = lane.state {
        changes = StateComparison.changes(from: old, to: new).map {
          ReplayStep.Change(path: $0.path, before: $0.before, after: $0.after)
        }
      }
      return Described(kind: "mutation", label: mutation.label, cause: cause, changes: changes)
    case .streamEnded(let end):
      return Described(
        kind: "streamEnd",
        label: "stream \(end.stream) " + (end.error.map { "failed: \($0)" } ?? "finished"))
    case .gap, .end:
      return Described(kind: "?", label: "")
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
  /// - Returns: Whether the origin resolves; when not, a divergence was recorded.
  private func check(
    _ from: TraceEvent.ReactorOrigin, of reactor: Int, lane: Lane, sequence: Int, line: Int
  ) -> Bool {
    func broken(_ reason: String) -> Bool {
      divergences.append(
        .brokenCause(
          sequence: sequence, line: line,
          reason: "of reactor \(reactor) comes from \(from), \(reason)"))
      return false
    }
    guard let origin = from.reactor == reactor ? lane : lanes[from.reactor] else {
      if mayMissEvents { return false }
      return broken(
        introduced.contains(from.reactor)
          ? "which was released before it" : "which was not introduced before it")
    }
    return check(from, against: origin, broken: broken)
  }

  private func check(
    _ from: TraceEvent.ReactorOrigin, against origin: Lane, broken: (String) -> Bool
  ) -> Bool {
    guard let action = from.action else {
      return !mayMissEvents ? broken("with no action of it") : false
    }
    if action > origin.lastAction {
      return !mayMissEvents
        ? broken("whose action \(action) did not come before it") : false
    }
    if let effect = from.effect, effect > origin.lastEffect {
      return !mayMissEvents
        ? broken("whose effect \(effect) did not start before it") : false
    }
    return !origin.unresolvedActions.contains(action)
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
    introduced.insert(introduction.reactor)
    if let parent = introduction.parent, lanes[parent] == nil,
      !(reader.header.window != nil && !introduced.contains(parent))
    {
      divergences.append(
        .brokenCause(
          sequence: sequence, line: line,
          reason: "introduces reactor \(introduction.reactor) with parent \(parent), "
            + (introduced.contains(parent)
              ? "which was released before it" : "which was not introduced before it")))
    }
    let actual = introduction.initialState.hash
    if actual != introduction.initialStateHash {
      divergences.append(
        .stateMismatch(
          .stateMismatch(
            path: reader.path, line: line, sequence: sequence,
            expected: introduction.initialStateHash, actual: actual)))
    }
    lanes[introduction.reactor] = Lane(introduction: introduction, state: introduction.initialState)
  }

  private func checkSequence(_ sequence: Int, line: Int) {
    // The introduction of a trace of one reactor read as a session has `seq` 0.
    guard sequence > 0 else { return }
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
}

extension SessionReplayStep {
  fileprivate func with(changes: [ReplayStep.Change]) -> SessionReplayStep {
    var step = self
    step.step.changes = changes
    return step
  }
}

/// How the actions and mutations of a session resolve through their causes: to a user action
/// (an action sent from outside every reactor) or a named external stream, or not at all (a
/// cause that points nowhere, an origin with no action).
public struct SessionCausality: Hashable, Sendable {
  /// Actions whose causes reach a user action or a named stream.
  public var resolvedActions = 0
  /// Actions whose causes do not.
  public var unresolvedActions = 0
  /// Mutations whose causes reach a user action or a named stream.
  public var resolvedMutations = 0
  /// Mutations whose causes do not.
  public var unresolvedMutations = 0

  /// No actions or mutations yet.
  public init() {}

  /// Whether every action and mutation resolves.
  public var isComplete: Bool { unresolvedActions == 0 && unresolvedMutations == 0 }

  mutating func count(resolved: Bool, isMutation: Bool) {
    switch (resolved, isMutation) {
    case (true, false): resolvedActions += 1
    case (false, false): unresolvedActions += 1
    case (true, true): resolvedMutations += 1
    case (false, true): unresolvedMutations += 1
    }
  }
}
