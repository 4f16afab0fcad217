public import ReactorTracing

/// Finds where two traces, or two sessions, first differ.
///
/// Both are read through ``ReactorTracing/SessionReader``: a trace of one reactor is a
/// session of one reactor. Events are compared pairwise, in order: the reactor each belongs
/// to, its kind, label, value, cause (with its `from` and `publishedBy`) and the hash of the
/// resulting state; the introductions of reactors by type, name, parent and initial state;
/// times are not compared, nor how a state was stored (snapshot or diff). So any difference in any reactor's lane, or in the
/// order the reactors interleave, is found at its first event.
///
/// ```swift
/// if let divergence = try TraceDiff.firstDivergence(path: "a.trace.jsonl", "b.trace.jsonl") {
///   print(divergence)
/// }
/// ```
public enum TraceDiff {
  /// The first difference between what two readers read, or `nil` when they are equal.
  /// - Parameters:
  ///   - first: A reader positioned before the first event.
  ///   - second: Another reader positioned before the first event.
  /// - Returns: The first divergence, or `nil`.
  /// - Throws: ``TraceReadError`` when either cannot be read.
  public static func firstDivergence(
    _ first: SessionReader, _ second: SessionReader
  ) throws(TraceReadError) -> TraceDivergence? {
    // Events of kinds a reader does not know are skipped in both: compare the places of the
    // events both know.
    var skipped = (0, 0)
    let namesReactors = first.namesReactors || second.namesReactors
    while true {
      let a = try first.next()
      skipped.0 += first.skippedBeforeLastEvent
      let b = try second.next()
      skipped.1 += second.skippedBeforeLastEvent
      guard a != nil || b != nil else { return nil }
      guard let a, let b else {
        let event = (a ?? b)!
        return TraceDivergence(
          sequence: event.sequence, reactor: namesReactors ? event.reactor : nil,
          first: a.flatMap(\.traceEvent),
          second: b.flatMap(\.traceEvent),
          reason: a == nil ? "the first trace ends here" : "the second trace ends here",
          stateDiff: nil)
      }
      let reactor = a.reactor ?? b.reactor
      if let reason = difference(
        a, b, sameSequence: a.sequence - skipped.0 == b.sequence - skipped.1)
      {
        var states: String?
        // Reactors of different types: their states do not compare.
        if case .introduced(let x) = a.kind, case .introduced(let y) = b.kind, x.type != y.type {
        } else if let reactor, let x = first.currentState(of: reactor),
          let y = second.currentState(of: reactor)
        {
          states = stateDiff(x, y)
        }
        return TraceDivergence(
          sequence: a.sequence, reactor: namesReactors ? reactor : nil,
          first: a.traceEvent, second: b.traceEvent, reason: reason, stateDiff: states)
      }
    }
  }

  /// The first difference between two traces or sessions in memory, or `nil` when they are
  /// equal.
  /// - Parameters:
  ///   - first: A session.
  ///   - second: Another session.
  /// - Returns: The first divergence, or `nil`.
  /// - Throws: ``TraceReadError`` when either is inconsistent.
  public static func firstDivergence(
    _ first: SessionTrace, _ second: SessionTrace
  ) throws(TraceReadError) -> TraceDivergence? {
    try firstDivergence(
      SessionReader(bytes: first.serialized, name: "first"),
      SessionReader(bytes: second.serialized, name: "second"))
  }

  /// The first difference between two traces in memory, or `nil` when they are equal.
  /// - Parameters:
  ///   - first: A trace.
  ///   - second: Another trace.
  /// - Returns: The first divergence, or `nil`.
  /// - Throws: ``TraceReadError`` when either trace is inconsistent.
  public static func firstDivergence(
    _ first: Trace, _ second: Trace
  ) throws(TraceReadError) -> TraceDivergence? {
    try firstDivergence(
      SessionReader(bytes: first.serialized, name: "first"),
      SessionReader(bytes: second.serialized, name: "second"))
  }

  /// The first difference between two trace or session files, or `nil` when they are equal.
  /// - Parameters:
  ///   - first: A trace or session file.
  ///   - second: Another one.
  /// - Returns: The first divergence, or `nil`.
  /// - Throws: ``TraceReadError`` when either trace cannot be read.
  public static func firstDivergence(
    path first: String, _ second: String
  ) throws(TraceReadError) -> TraceDivergence? {
    try firstDivergence(SessionReader(path: first), SessionReader(path: second))
  }

  private static func stateDiff(_ a: TraceHeader.State, _ b: TraceHeader.State) -> String? {
    switch (a, b) {
    case (.json(let a), .json(let b)):
      a == b ? nil : StateComparison.pathDiff(from: a, to: b)
    default:
      a == b ? nil : "  \(a) → \(b)"
    }
  }

  private static func difference(
    _ a: SessionEvent, _ b: SessionEvent, sameSequence: Bool
  ) -> String? {
    if !sameSequence { return "seq \(a.sequence) against \(b.sequence)" }
    switch (a.kind, b.kind) {
    case (.introduced(let x), .introduced(let y)):
      if x.type != y.type { return "recorded from '\(x.type)' and '\(y.type)'" }
      if x.reactor != y.reactor { return "reactor ids \(x.reactor) and \(y.reactor)" }
      if x.name != y.name || x.parent != y.parent || x.createdDuring != y.createdDuring {
        return "reactor \(x.reactor) is introduced differently"
      }
      if x.initialStateHash != y.initialStateHash { return "the initial states differ" }
    case (.released(let x), .released(let y)):
      if x != y { return "the release of reactor \(x) against \(y)" }
    case (.gap(let x), .gap(let y)):
      if x != y { return "\(x.droppedEvents) against \(y.droppedEvents) dropped events" }
    case (.end(let x), .end(let y)):
      if x != y { return "the end lines differ" }
    case (.reactor(let x, let xKind), .reactor(let y, let yKind)):
      if x != y { return "an event of reactor \(x) against one of reactor \(y)" }
      return difference(xKind, yKind)
    default:
      return "the first trace has \(summary(a)), the second \(summary(b))"
    }
    return nil
  }

  private static func difference(_ a: TraceEvent.Kind, _ b: TraceEvent.Kind) -> String? {
    switch (a, b) {
    case (.action(let x), .action(let y)):
      if x.label != y.label { return "action \(x.label) against \(y.label)" }
      if x.value != y.value { return "the action \(x.label)'s values differ" }
      if x.source != y.source { return "the action \(x.label)'s sources differ" }
      if x.id != y.id { return "action ids \(x.id) and \(y.id)" }
      if x.from != y.from { return "the action \(x.label)'s origins differ" }
    case (.effectStarted(let x), .effectStarted(let y)):
      if x != y {
        return "effect \(x.effect) of action \(x.action) against "
          + "effect \(y.effect) of action \(y.action)"
      }
    case (.effectEnded(let x), .effectEnded(let y)):
      if x != y { return "effect \(x.effect) \(x.outcome) against \(y.effect) \(y.outcome)" }
    case (.mutation(let x), .mutation(let y)):
      if x.label != y.label { return "mutation \(x.label) against \(y.label)" }
      if x.value != y.value { return "the mutation \(x.label)'s values differ" }
      if x.cause != y.cause || x.from != y.from || x.publisher != y.publisher {
        return "the mutation \(x.label)'s causes differ"
      }
      if x.id != y.id { return "mutation ids \(x.id) and \(y.id)" }
      if x.stateHash != y.stateHash { return "the states after mutation \(x.label) differ" }
    case (.streamEnded(let x), .streamEnded(let y)):
      if x != y { return "stream \(x.stream) ended differently from stream \(y.stream)" }
    case (.jump(let x), .jump(let y)):
      if x.target != y.target { return "a jump to event \(x.target) against \(y.target)" }
      if x.stateHash != y.stateHash { return "the states of the jump to event \(x.target) differ" }
    case (.gap(let x), .gap(let y)):
      if x != y { return "\(x.droppedEvents) against \(y.droppedEvents) dropped events" }
    case (.end(let x), .end(let y)):
      if x != y { return "the end lines differ" }
    default:
      return "the first trace has \(summary(a)), the second \(summary(b))"
    }
    return nil
  }

  /// The event in a few words: its kind and what it is.
  private static func summary(_ event: SessionEvent) -> String {
    switch event.kind {
    case .introduced(let introduction): "the introduction of reactor \(introduction.reactor)"
    case .released(let reactor): "the release of reactor \(reactor)"
    case .reactor(_, let kind): summary(kind)
    case .gap(let gap): "gap of \(gap.droppedEvents) dropped events"
    case .end: "the end line"
    }
  }

  /// The event in a few words: its kind and what it is.
  private static func summary(_ kind: TraceEvent.Kind) -> String {
    switch kind {
    case .action(let action): "action \(action.label)"
    case .effectStarted(let start):
      "effectStart of effect \(start.effect)" + (start.name.map { " '\($0)'" } ?? "")
        + " (action \(start.action))"
    case .effectEnded(let end): "effectEnd of effect \(end.effect) (\(end.outcome))"
    case .mutation(let mutation): "mutation \(mutation.label)"
    case .streamEnded(let end): "streamEnd of stream \(end.stream)"
    case .jump(let jump): "jump to event \(jump.target)"
    case .gap(let gap): "gap of \(gap.droppedEvents) dropped events"
    case .end: "the end line"
    }
  }
}
