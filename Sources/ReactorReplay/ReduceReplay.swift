public import ReactorCore
public import ReactorTracing

/// Replays a trace through a reactor's `reduce(state:mutation:)` and reports the first state
/// that differs from the recorded one.
///
/// Starting from the recorded initial state, each recorded mutation is decoded and applied in
/// recorded order; the state `reduce` returns is encoded and compared with the state the
/// trace recorded after that mutation. Timing plays no part, nothing runs asynchronously, and
/// the trace is streamed, so memory does not grow with its length.
///
/// ```swift
/// let result = try ReduceReplay.run(path: "counter.trace.jsonl", through: CounterReactor())
/// if let divergence = result.divergence { print(divergence) }
/// ```
///
/// Values at paths the trace redacted (the string `"<redacted>"`) are not compared. A
/// mutation whose payload was redacted may not decode; replay then fails with
/// ``ReplayError/undecodable(line:reason:)``.
@MainActor
public enum ReduceReplay {
  /// Replays the trace `reader` is reading through `reactor`'s `reduce`.
  /// - Parameters:
  ///   - reader: A reader positioned before the first event, verifying states.
  ///   - reactor: The reactor whose `reduce` to run; its `Mutation` and `State` must be
  ///     Codable.
  ///   - allowingReactorMismatch: Whether to replay a trace recorded from another reactor
  ///     type (one renamed or moved to another module).
  /// - Returns: The number of mutations that matched and the first divergence, if any.
  /// - Throws: ``ReplayError`` when the trace cannot be read, was recorded from another
  ///   reactor or with incompatible types, or holds values that do not decode.
  public static func run<R: Reactor>(
    _ reader: TraceReader, through reactor: R, allowingReactorMismatch: Bool = false
  ) throws(ReplayError) -> ReplayResult {
    let header = reader.header
    try ReplayChecks.check(header, for: R.self, allowingReactorMismatch: allowingReactorMismatch)
    guard CodableValues.isCodable(R.Mutation.self) else { throw .notCodable("Mutation") }
    guard CodableValues.isCodable(R.State.self) else { throw .notCodable("State") }
    guard case .json(let initialJSON) = header.initialState else {
      throw .missingValue(line: 1, what: "initial state")
    }
    var state: R.State
    do {
      state = try CodableValues.decodeOrThrow(R.State.self, from: initialJSON)
    } catch {
      throw .undecodable(line: 1, reason: "initial state: \(error)")
    }
    let isRedacted = !header.redactions.isEmpty
    var actions = LabelCache()
    let mutations = DecodedValueCache<R.Mutation>()
    let encodeState = CodableValues.encoder(for: R.State.self)
    var matched = 0
    while let event = try ReplayChecks.next(reader) {
      switch event.kind {
      case .action(let action):
        actions.insert(action.label, for: action.id)
      case .mutation(let recorded):
        let line = reader.lineNumber
        guard let value = recorded.value else { throw .missingValue(line: line, what: "mutation") }
        let mutation: R.Mutation
        do {
          mutation = try mutations.value(for: value) {
            try CodableValues.decodeOrThrow(R.Mutation.self, from: $0)
          }
        } catch {
          throw .undecodable(line: line, reason: "mutation \(recorded.label): \(error)")
        }
        state = reactor.reduce(state: state, mutation: mutation)
        guard case .json(let recordedState) = reader.currentState else {
          throw .missingValue(line: line, what: "state")
        }
        let replayedJSON: JSONValue
        do {
          replayedJSON = try encodeState?(state) ?? .null
        } catch {
          throw .undecodable(line: line, reason: "the replayed state does not encode: \(error)")
        }
        let compared =
          isRedacted
          ? StateComparison.masking(replayedJSON, like: recordedState) : replayedJSON
        if compared != recordedState {
          let divergence = ReplayDivergence(
            sequence: event.sequence, line: line, mutation: recorded.label,
            action: recorded.cause.action.flatMap { actions[$0] },
            reason: "reduce returned a different state",
            diff: StateComparison.stateDiff(
              recorded: recordedState, replayed: state, replayedJSON: compared,
              as: R.State.self))
          return ReplayResult(stepsChecked: matched, divergence: divergence)
        }
        matched += 1
      default:
        break
      }
    }
    return ReplayResult(stepsChecked: matched, divergence: nil)
  }

  /// Replays the trace file at `path` through `reactor`'s `reduce`.
  /// - Parameters:
  ///   - path: The trace file.
  ///   - reactor: The reactor whose `reduce` to run.
  ///   - allowingReactorMismatch: Whether to replay a trace recorded from another reactor
  ///     type.
  /// - Returns: The number of mutations that matched and the first divergence, if any.
  /// - Throws: ``ReplayError``, as ``run(_:through:allowingReactorMismatch:)`` does.
  public static func run<R: Reactor>(
    path: String, through reactor: R, allowingReactorMismatch: Bool = false
  ) throws(ReplayError) -> ReplayResult {
    try run(
      ReplayChecks.open(path), through: reactor, allowingReactorMismatch: allowingReactorMismatch)
  }

  /// Replays a trace held in memory through `reactor`'s `reduce`.
  /// - Parameters:
  ///   - trace: The trace, as a recorder produced it.
  ///   - reactor: The reactor whose `reduce` to run.
  ///   - allowingReactorMismatch: Whether to replay a trace recorded from another reactor
  ///     type.
  /// - Returns: The number of mutations that matched and the first divergence, if any.
  /// - Throws: ``ReplayError``, as ``run(_:through:allowingReactorMismatch:)`` does.
  public static func run<R: Reactor>(
    _ trace: Trace, through reactor: R, allowingReactorMismatch: Bool = false
  ) throws(ReplayError) -> ReplayResult {
    try run(
      ReplayChecks.open(trace), through: reactor,
      allowingReactorMismatch: allowingReactorMismatch)
  }
}

/// Replays `trace` through `reactor`'s `reduce` with ``ReduceReplay``, for one-line test
/// assertions.
///
/// ```swift
/// #expect(try replay(trace, through: CounterReactor()).divergence == nil)
/// ```
/// - Parameters:
///   - trace: The trace.
///   - reactor: The reactor whose `reduce` to run.
///   - allowingReactorMismatch: Whether to replay a trace recorded from another reactor type.
/// - Returns: The number of mutations that matched and the first divergence, if any.
/// - Throws: ``ReplayError`` when the trace cannot be replayed.
@MainActor
public func replay<R: Reactor>(
  _ trace: Trace, through reactor: R, allowingReactorMismatch: Bool = false
) throws(ReplayError) -> ReplayResult {
  try ReduceReplay.run(trace, through: reactor, allowingReactorMismatch: allowingReactorMismatch)
}

/// Replays the trace file at `path` through `reactor`'s `reduce` and returns a failure
/// message, or `nil` when the replay matched.
///
/// ```swift
/// #expect(assertReplay("counter.trace.jsonl", reduces: CounterReactor()) == nil)
/// ```
/// - Parameters:
///   - path: The trace file.
///   - reactor: The reactor whose `reduce` to run.
///   - allowingReactorMismatch: Whether to replay a trace recorded from another reactor type.
/// - Returns: A multi-line report of the divergence or of why the replay could not run, or
///   `nil` when it matched.
@MainActor
public func assertReplay<R: Reactor>(
  _ path: String, reduces reactor: R, allowingReactorMismatch: Bool = false
) -> String? {
  do throws(ReplayError) {
    return try ReduceReplay.run(
      path: path, through: reactor, allowingReactorMismatch: allowingReactorMismatch
    ).failureMessage
  } catch {
    return "replay failed: \(error)"
  }
}
