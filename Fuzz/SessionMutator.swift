import ReactorJSON
import ReactorReplay
import ReactorTracing

/// The structural-replay property on sessions and traces that lie: from an input that
/// structural replay accepts (or one of two variants of it made here, a flight-recorder window
/// and a gap, where references to lost events are allowed), it changes one reference a line
/// makes at a time (four changes an input) (a cause's or `from`'s reactor, action or effect, `publishedBy`, an effect's
/// action, an effect end's effect, a `parent`, a `during`, a `seq`, a `t`) and replays the
/// result structurally.
///
/// The oracle is computed independently of the replay, from the whole input: a changed
/// reference that names something that did not occur before its line (an id the reactor
/// had not used yet, a reactor not alive), or something inconsistent (an effect another
/// action started, a `during` that is not the parent's latest event, a `t` before the line
/// ahead, a `seq` out of order), must be refused, unless it names an id the input may have
/// lost (before the window, for a reactor alive at its start; in a gap). Any other change
/// may be accepted (a mutation credited to another action seen before cannot be told from a
/// true one without the reactor's code). A change that must be refused and is not is a false
/// match: the target traps.
enum SessionMutator {
  /// Checks the property on `bytes`, when they hold a trace or session of at most 400 events
  /// that structural replay accepts.
  static func check(_ bytes: [UInt8]) {
    guard let reader = try? SessionReader(bytes: bytes, name: "fuzz", verifyingStates: false),
      accepts(bytes), !skipsLines(bytes)
    else { return }
    var inputs: [Input] = []
    if reader.header.isTraceOfOneReactor {
      guard let trace = try? Trace(bytes: bytes), trace.events.count <= 400 else { return }
      inputs.append(.trace(trace))
    } else {
      guard let session = try? SessionTrace(bytes: bytes), session.events.count <= 400 else {
        return
      }
      inputs.append(.session(session))
    }
    let seed = bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    var random = Random(state: seed | 1)
    // One variant an input, four changes of it: a few replays per input, not dozens.
    switch random.next(below: 3) {
    case 1: inputs = inputs[0].windowed(at: random.next(below: 1 << 20)).map { [$0] } ?? inputs
    case 2: inputs = inputs[0].gapped(at: random.next(below: 1 << 20)).map { [$0] } ?? inputs
    default: break
    }
    for input in inputs {
      // A variant made here that replay refuses is a false divergence.
      guard accepts(input.serialized) else {
        fatalError(
          "a legitimate \(input.what) is refused by structural replay:\n"
            + String(decoding: input.serialized, as: UTF8.self))
      }
      let view = View(input)
      for _ in 0..<4 {
        guard let change = view.change(using: &random) else { continue }
        let mutated = input.applying(change)
        if change.mustBeRefused, accepts(mutated.serialized) {
          // With the changed input, to reproduce it with `reactor-trace replay`.
          fatalError(
            "false match: \(change.description) in a \(input.what) is accepted:\n"
              + String(decoding: mutated.serialized, as: UTF8.self))
        }
      }
    }
  }

  /// Whether reading `bytes` skips lines of kinds the reader does not know: their `seq`
  /// numbers are kept by the reader but not by ``SessionTrace``, whose lines written again
  /// would then miss them (found by CI's fuzz run).
  private static func skipsLines(_ bytes: [UInt8]) -> Bool {
    guard let reader = try? SessionReader(bytes: bytes, name: "fuzz", verifyingStates: false)
    else { return true }
    while let event = try? reader.next() {
      if reader.skippedBeforeLastEvent > 0 { return true }
      if case .end = event.kind { break }
    }
    return reader.skippedBeforeLastEvent > 0
  }

  /// Whether structural replay accepts `bytes`: they read, and nothing diverges.
  private static func accepts(_ bytes: [UInt8]) -> Bool {
    guard let reader = try? SessionReader(bytes: bytes, name: "fuzz", verifyingStates: false)
    else { return false }
    let replay = StructuralReplay(reader: reader)
    do {
      try replay.checkRemaining()
    } catch {
      return false
    }
    return replay.divergences.isEmpty
  }
}

/// A small deterministic generator (xorshift).
private struct Random {
  var state: UInt64

  mutating func next(below bound: Int) -> Int {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return bound <= 0 ? 0 : Int(state % UInt64(bound))
  }
}

/// A trace of one reactor or a session, as events of reactors.
private enum Input {
  case trace(Trace)
  case session(SessionTrace)

  var what: String {
    switch self {
    case .trace(let trace): trace.header.window == nil ? "trace" : "window of a trace"
    case .session(let session): session.header.window == nil ? "session" : "session window"
    }
  }

  var window: TraceHeader.Window? {
    switch self {
    case .trace(let trace): trace.header.window
    case .session(let session): session.header.window
    }
  }

  /// The events as a session's (a trace's reactor is 1, introduced before them).
  var events: [SessionEvent] {
    switch self {
    case .session(let session): return session.events
    case .trace(let trace):
      return trace.events.map { event in
        let kind: SessionEvent.Kind
        switch event.kind {
        case .gap(let gap): kind = .gap(gap)
        case .end(let end):
          kind = .end(
            SessionEvent.End(
              observedEvents: end.observedEvents, droppedEvents: end.droppedEvents))
        default: kind = .reactor(1, event.kind)
        }
        return SessionEvent(sequence: event.sequence, time: event.time, kind: kind)
      }
    }
  }

  var serialized: [UInt8] {
    switch self {
    case .trace(let trace): trace.serialized
    case .session(let session): session.serialized
    }
  }

  /// With one event changed.
  func applying(_ change: Change) -> Input {
    switch self {
    case .session(var session):
      session.events[change.index] = change.event
      return .session(session)
    case .trace(var trace):
      var event = trace.events[change.index]
      event.sequence = change.event.sequence
      event.time = change.event.time
      if case .reactor(_, let kind) = change.event.kind { event.kind = kind }
      trace.events[change.index] = event
      return .trace(trace)
    }
  }

  /// A flight-recorder window of it starting at an event chosen by `choice`: the reactors
  /// alive there introduced again at their own `seq`, each with its state there.
  func windowed(at choice: Int) -> Input? {
    guard window == nil else { return nil }
    let events = self.events
    guard events.count > 2 else { return nil }
    let start = 1 + choice % (events.count - 1)
    guard case .reactor = events[start].kind,
      let reader = try? SessionReader(bytes: serialized, name: "fuzz", verifyingStates: true)
    else { return nil }
    var introductions: [Int: (SessionEvent, ReactorIntroduction)] = [:]
    for _ in 0..<start + (isTrace ? 1 : 0) {
      guard let read = try? reader.next() else { return nil }
      if case .introduced(let introduction) = read.kind {
        introductions[introduction.reactor] = (read, introduction)
      }
    }
    let first = events[start].sequence
    let newWindow = TraceHeader.Window(firstSequence: first, droppedEvents: first - 1)
    switch self {
    case .trace(var trace):
      guard let state = reader.currentState(of: 1) else { return nil }
      trace.header.window = newWindow
      trace.header.initialState = state
      trace.header.initialStateHash = state.hash
      trace.events.removeFirst(start)
      return .trace(trace)
    case .session(var session):
      var base: [SessionEvent] = []
      for id in reader.liveReactors.keys.sorted() {
        guard var (event, introduction) = introductions[id],
          let state = reader.currentState(of: id)
        else { return nil }
        introduction.initialState = state
        introduction.initialStateHash = state.hash
        event.kind = .introduced(introduction)
        base.append(event)
      }
      session.header.window = newWindow
      session.header.version = max(session.header.version, TraceFormatVersion(major: 2, minor: 1))
      session.events = base + session.events[start...]
      return .session(session)
    }
  }

  private var isTrace: Bool {
    if case .trace = self { return true }
    return false
  }

  /// With up to 3 consecutive events that change no state (actions, effect starts and ends)
  /// replaced by a gap that dropped them, from an event chosen by `choice`.
  func gapped(at choice: Int) -> Input? {
    let events = self.events
    guard !events.isEmpty else { return nil }
    let start = choice % events.count
    var end = start
    while end < events.count, end - start < 3, case .reactor(_, let kind) = events[end].kind {
      if case .mutation = kind { break }
      if case .jump = kind { break }
      end += 1
    }
    let count = end - start
    guard count > 0 else { return nil }
    let removed = events[start].sequence..<(events[start].sequence + count)
    // An introduction created during a removed event would name what is not there.
    for event in events[end...] {
      if case .introduced(let introduction) = event.kind,
        let during = introduction.createdDuring, during >= removed.lowerBound
      {
        return nil
      }
    }
    let gap = TraceEvent.Gap(droppedEvents: count)
    let shift = count - 1
    // A jump names the event whose state it takes by its `seq`: numbered again with it; one
    // that names a removed event would name what is not there.
    func renumbered(_ kind: TraceEvent.Kind) -> TraceEvent.Kind? {
      guard case .jump(var jump) = kind, jump.target >= removed.lowerBound else { return kind }
      guard jump.target >= removed.upperBound else { return nil }
      jump.target -= shift
      return .jump(jump)
    }
    switch self {
    case .trace(var trace):
      var kept = Array(trace.events[..<start])
      kept.append(
        TraceEvent(sequence: removed.lowerBound, time: trace.events[start].time, kind: .gap(gap)))
      for var event in trace.events[end...] {
        event.sequence -= shift
        guard let kind = renumbered(event.kind) else { return nil }
        event.kind = kind
        kept.append(event)
      }
      trace.events = kept
      if trace.header.version.minor < 2 { trace.header.version.minor = 2 }
      return .trace(trace)
    case .session(var session):
      var kept = Array(session.events[..<start])
      kept.append(
        SessionEvent(
          sequence: removed.lowerBound, time: session.events[start].time, kind: .gap(gap)))
      for var event in session.events[end...] {
        event.sequence -= shift
        if case .reactor(let reactor, let kind) = event.kind {
          guard let kind = renumbered(kind) else { return nil }
          event.kind = .reactor(reactor, kind)
        }
        kept.append(event)
      }
      session.events = kept
      return .session(session)
    }
  }
}

/// One event changed, and whether the change must be refused.
private struct Change {
  var index: Int
  var event: SessionEvent
  var mustBeRefused: Bool
  var description: String
}

/// What the oracle knows of an input, from all of it.
private struct View {
  let input: Input
  let events: [SessionEvent]
  let window: TraceHeader.Window?
  let isTrace: Bool

  init(_ input: Input) {
    self.input = input
    events = input.events
    window = input.window
    if case .trace = input { isTrace = true } else { isTrace = false }
  }

  /// What a reactor did before the event at `index`.
  struct Before {
    var live: Set<Int> = []
    var introduced: Set<Int> = []
    var actions: [Int: Set<Int>] = [:]
    /// Each effect started, with its action.
    var effects: [Int: [Int: Int]] = [:]
    var ended: [Int: Set<Int>] = [:]
    var lastSequence: [Int: Int] = [:]
    var lastTime: Duration?
  }

  func before(_ index: Int) -> Before {
    var known = Before()
    if isTrace {
      known.live = [1]
      known.introduced = [1]
      known.lastSequence[1] = 0
    }
    for event in events[..<index] {
      known.lastTime = event.time
      switch event.kind {
      case .introduced(let introduction):
        known.live.insert(introduction.reactor)
        known.introduced.insert(introduction.reactor)
        known.lastSequence[introduction.reactor] = event.sequence
      case .released(let reactor):
        known.live.remove(reactor)
      case .reactor(let reactor, let kind):
        known.lastSequence[reactor] = event.sequence
        switch kind {
        case .action(let action): known.actions[reactor, default: []].insert(action.id)
        case .effectStarted(let start):
          known.effects[reactor, default: [:]][start.effect] = start.action
        case .effectEnded(let end): known.ended[reactor, default: []].insert(end.effect)
        default: break
        }
      default: break
      }
    }
    return known
  }

  /// Whether reactor `reactor` is one of those alive when the window starts.
  private func isBase(_ reactor: Int) -> Bool {
    guard let window else { return false }
    if isTrace { return true }
    return events.contains { event in
      if case .introduced(let introduction) = event.kind, introduction.reactor == reactor {
        return event.sequence < window.firstSequence
      }
      return false
    }
  }

  /// The ids of actions (or effects) reactor `reactor` uses in events from `range`.
  private func ids(of reactor: Int, effects: Bool, in range: Range<Int>) -> [Int] {
    events[range].compactMap { event in
      guard case .reactor(reactor, let kind) = event.kind else { return nil }
      switch kind {
      case .action(let action) where !effects: return action.id
      case .effectStarted(let start) where effects: return start.effect
      default: return nil
      }
    }
  }

  /// Whether an action (or effect) id of `reactor` named at `index` may be one the input
  /// lost: before the window (below the first id the reactor uses in the input), or in a
  /// gap before `index` (between the ids the reactor used before and after it).
  func mayBeLost(_ id: Int, of reactor: Int, effects: Bool, at index: Int) -> Bool {
    guard id >= 1 else { return false }
    if isBase(reactor),
      id < (ids(of: reactor, effects: effects, in: 0..<events.count).min() ?? .max)
    {
      return true
    }
    for gap in 0..<index {
      guard case .gap = events[gap].kind else { continue }
      let before = ids(of: reactor, effects: effects, in: 0..<gap).max() ?? 0
      let after = ids(of: reactor, effects: effects, in: gap..<events.count).min() ?? .max
      if id > before, id < after { return true }
    }
    return false
  }

  /// Whether reactor `reactor`, not alive at `index`, may be one released before the window.
  func mayBeReleasedBeforeWindow(_ reactor: Int, at index: Int) -> Bool {
    guard window != nil, !isTrace, reactor >= 1 else { return false }
    var firstInWindow: Int?
    for event in events {
      guard case .introduced(let introduction) = event.kind else { continue }
      if introduction.reactor == reactor { return false }
      if !isBase(introduction.reactor), firstInWindow == nil {
        firstInWindow = introduction.reactor
      }
    }
    return reactor < (firstInWindow ?? .max)
  }

  /// Whether naming action `action`, and effect `effect` of it, of `reactor` at `index` is
  /// wrong for sure.
  func isWrong(action: Int, effect: Int?, of reactor: Int, at index: Int, known: Before) -> Bool {
    if !(known.actions[reactor]?.contains(action) ?? false),
      !mayBeLost(action, of: reactor, effects: false, at: index)
    {
      return true
    }
    guard let effect else { return false }
    if let starter = known.effects[reactor]?[effect] { return starter != action }
    return !mayBeLost(effect, of: reactor, effects: true, at: index)
  }

  /// Whether an origin named at `index` is wrong for sure.
  func isWrong(_ from: TraceEvent.ReactorOrigin, at index: Int, known: Before) -> Bool {
    if !known.live.contains(from.reactor) {
      return !mayBeReleasedBeforeWindow(from.reactor, at: index)
    }
    guard let action = from.action else { return true }
    return isWrong(action: action, effect: from.effect, of: from.reactor, at: index, known: known)
  }

  /// A change of one reference of a random event, or `nil` when that event has none.
  func change(using random: inout Random) -> Change? {
    guard !events.isEmpty else { return nil }
    let index = random.next(below: events.count)
    var event = events[index]
    let known = before(index)
    let choices = (0..<4).map { _ in random.next(below: 7) }
    var used = 0
    // Another id near the original, or one far from it.
    func values(_ original: Int) -> Int {
      used += 1
      return [original + 1, original - 1, 0, original + 7, 1, 2, 999][choices[(used - 1) % 4]]
    }
    func made(_ what: String, wrong: Bool) -> Change {
      Change(
        index: index, event: event, mustBeRefused: wrong,
        description: "event \(events[index].sequence): \(what)")
    }
    switch random.next(below: 8) {
    case 0:
      event.sequence += 1
      // Before a window, the lines of the reactors alive at its start keep their
      // introductions' `seq`, with gaps for what was lost: one more that stays below the next
      // line's is another introduction the input may have had (found by the 30-minute fuzz).
      let next = index + 1 < events.count ? events[index + 1].sequence : Int.max
      let mayBeLost = window.map { event.sequence < $0.firstSequence } ?? false
      return made("seq \(event.sequence)", wrong: !(mayBeLost && event.sequence < next))
    case 1:
      guard let last = known.lastTime, last > .zero else { return nil }
      event.time = last - .nanoseconds(1)
      return made("t before the line ahead", wrong: true)
    default:
      break
    }
    switch event.kind {
    case .introduced(var introduction):
      guard !isTrace else { return nil }
      if random.next(below: 2) == 0 || introduction.parent == nil {
        let parent = values(introduction.parent ?? 1)
        introduction.parent = parent
        event.kind = .introduced(introduction)
        guard event != events[index] else { return nil }
        let wrong =
          parent == introduction.reactor
          || (!known.live.contains(parent) && !mayBeReleasedBeforeWindow(parent, at: index))
        // A new parent's latest event is not the recorded `during`, unless it is lost.
        let duringWrong =
          known.live.contains(parent) && introduction.createdDuring != nil
          && introduction.createdDuring != known.lastSequence[parent]
          && !(window.map { (known.lastSequence[parent] ?? 0) < $0.firstSequence } ?? false)
        return made("parent \(parent)", wrong: wrong || duringWrong)
      }
      guard let parent = introduction.parent else { return nil }
      let during = values(introduction.createdDuring ?? event.sequence - 1)
      introduction.createdDuring = during
      event.kind = .introduced(introduction)
      guard event != events[index] else { return nil }
      var wrong = during >= event.sequence || during < 1
      if let latest = known.lastSequence[parent], known.live.contains(parent) {
        let lost = window.map { latest < $0.firstSequence && during >= latest } ?? false
        if during != latest, !lost { wrong = true }
      }
      return made("during \(during)", wrong: wrong)
    case .reactor(let reactor, var kind):
      let wrong: Bool
      let what: String
      switch kind {
      case .action(var action):
        guard var from = action.from else { return nil }
        mutate(&from, values: values, choice: choices[3])
        action.from = from
        kind = .action(action)
        wrong = isWrong(from, at: index, known: known)
        what = "from \(from)"
      case .effectStarted(var start):
        start.action = values(start.action)
        kind = .effectStarted(start)
        wrong = isWrong(action: start.action, effect: nil, of: reactor, at: index, known: known)
        what = "effect \(start.effect) started by action \(start.action)"
      case .effectEnded(var end):
        end.effect = values(end.effect)
        kind = .effectEnded(end)
        let started = known.effects[reactor]?[end.effect] != nil
        wrong =
          (known.ended[reactor]?.contains(end.effect) ?? false)
          || (!started && !mayBeLost(end.effect, of: reactor, effects: true, at: index))
        what = "end of effect \(end.effect)"
      case .mutation(var mutation):
        switch mutation.cause {
        case .action(let action):
          let changed = values(action)
          mutation.cause = .action(changed)
          wrong = isWrong(action: changed, effect: nil, of: reactor, at: index, known: known)
          what = "a mutation caused by action \(changed)"
        case .effect(var effect, var action):
          if random.next(below: 2) == 0 { effect = values(effect) } else { action = values(action) }
          mutation.cause = .effect(effect, action: action)
          wrong = isWrong(action: action, effect: effect, of: reactor, at: index, known: known)
          what = "a mutation from effect \(effect) of action \(action)"
        case .stream:
          if var from = mutation.from {
            mutate(&from, values: values, choice: choices[3])
            mutation.from = from
            wrong = isWrong(from, at: index, known: known)
            what = "a stream mutation from \(from)"
          } else if var publisher = mutation.publisher {
            if random.next(below: 2) == 0 || publisher.effect == nil {
              publisher.action = values(publisher.action)
            } else {
              publisher.effect = values(publisher.effect ?? 1)
            }
            mutation.publisher = publisher
            wrong = isWrong(
              action: publisher.action, effect: publisher.effect, of: reactor, at: index,
              known: known)
            what = "publishedBy action \(publisher.action), effect \(publisher.effect ?? 0)"
          } else {
            return nil
          }
        }
        kind = .mutation(mutation)
      default:
        return nil
      }
      event.kind = .reactor(reactor, kind)
      guard event != events[index] else { return nil }
      return made(what, wrong: wrong)
    default:
      return nil
    }
  }

  private func mutate(
    _ from: inout TraceEvent.ReactorOrigin, values: (Int) -> Int, choice: Int
  ) {
    switch choice % 3 {
    case 0: from.reactor = values(from.reactor)
    case 1: from.action = values(from.action ?? 1)
    default: from.effect = values(from.effect ?? 1)
    }
  }
}
