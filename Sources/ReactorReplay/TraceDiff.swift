public import ReactorTracing

/// Finds where two traces of the same reactor first differ.
///
/// Events are compared pairwise, in order, by kind, label, value, cause and the hash of the
/// resulting state; times are not compared, nor how a state was stored (snapshot or diff).
///
/// ```swift
/// if let divergence = try TraceDiff.firstDivergence(path: "a.trace.jsonl", "b.trace.jsonl") {
///   print(divergence)
/// }
/// ```
public enum TraceDiff {
  /// The first difference between the traces two readers read, or `nil` when they are equal.
  /// - Parameters:
  ///   - first: A reader positioned before the first event.
  ///   - second: Another reader positioned before the first event.
  /// - Returns: The first divergence, or `nil`.
  /// - Throws: ``TraceReadError`` when either trace cannot be read.
  public static func firstDivergence(
    _ first: TraceReader, _ second: TraceReader
  ) throws(TraceReadError) -> TraceDivergence? {
    if first.header.reactor != second.header.reactor {
      return TraceDivergence(
        sequence: 0, first: nil, second: nil,
        reason: "recorded from '\(first.header.reactor)' and '\(second.header.reactor)'",
        stateDiff: nil)
    }
    if first.header.initialStateHash != second.header.initialStateHash {
      return TraceDivergence(
        sequence: 0, first: nil, second: nil, reason: "the initial states differ",
        stateDiff: stateDiff(first.header.initialState, second.header.initialState))
    }
    while true {
      let a = try first.next()
      let b = try second.next()
      guard a != nil || b != nil else { return nil }
      guard let a, let b else {
        let sequence = (a ?? b)!.sequence
        return TraceDivergence(
          sequence: sequence, first: a, second: b,
          reason: a == nil ? "the first trace ends here" : "the second trace ends here",
          stateDiff: nil)
      }
      // Events of kinds a reader does not know are skipped in both: compare the places of
      // the events both know.
      let places = (a.sequence - first.skippedEventCount, b.sequence - second.skippedEventCount)
      if let reason = difference(a, b, sameSequence: places.0 == places.1) {
        return TraceDivergence(
          sequence: a.sequence, first: a, second: b, reason: reason,
          stateDiff: stateDiff(first.currentState, second.currentState))
      }
    }
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
      TraceReader(bytes: first.serialized, name: "first"),
      TraceReader(bytes: second.serialized, name: "second"))
  }

  /// The first difference between two trace files, or `nil` when they are equal.
  /// - Parameters:
  ///   - first: A trace file.
  ///   - second: Another trace file.
  /// - Returns: The first divergence, or `nil`.
  /// - Throws: ``TraceReadError`` when either trace cannot be read.
  public static func firstDivergence(
    path first: String, _ second: String
  ) throws(TraceReadError) -> TraceDivergence? {
    try firstDivergence(TraceReader(path: first), TraceReader(path: second))
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
    _ a: TraceEvent, _ b: TraceEvent, sameSequence: Bool
  ) -> String? {
    if !sameSequence { return "seq \(a.sequence) against \(b.sequence)" }
    switch (a.kind, b.kind) {
    case (.action(let x), .action(let y)):
      if x.label != y.label { return "action \(x.label) against \(y.label)" }
      if x.value != y.value { return "the action \(x.label)'s values differ" }
      if x.source != y.source { return "the action \(x.label)'s sources differ" }
      if x.id != y.id { return "action ids \(x.id) and \(y.id)" }
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
      if x.cause != y.cause { return "the mutation \(x.label)'s causes differ" }
      if x.id != y.id { return "mutation ids \(x.id) and \(y.id)" }
      if x.stateHash != y.stateHash { return "the states after mutation \(x.label) differ" }
    case (.streamEnded(let x), .streamEnded(let y)):
      if x != y { return "stream \(x.stream) ended differently from stream \(y.stream)" }
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
  private static func summary(_ event: TraceEvent) -> String {
    switch event.kind {
    case .action(let action): "action \(action.label)"
    case .effectStarted(let start):
      "effectStart of effect \(start.effect)" + (start.name.map { " '\($0)'" } ?? "")
        + " (action \(start.action))"
    case .effectEnded(let end): "effectEnd of effect \(end.effect) (\(end.outcome))"
    case .mutation(let mutation): "mutation \(mutation.label)"
    case .streamEnded(let end): "streamEnd of stream \(end.stream)"
    case .gap(let gap): "gap of \(gap.droppedEvents) dropped events"
    case .end: "the end line"
    }
  }
}
