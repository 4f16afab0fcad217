public import ReactorCore
public import ReactorTracing

/// Replays a trace through a reactor's `reduce(state:mutation:)` and reports the first state
/// that differs from the recorded one.
///
/// Starting from the recorded initial state, each recorded mutation is decoded and applied in
/// recorded order; the state `reduce` returns is encoded and its hash compared with the hash
/// the trace recorded after that mutation. Only where the hashes differ is the recorded state
/// rebuilt from its snapshot or diff (and checked against its hash) and compared value by
/// value, so a divergence is reported with the recorded state. Timing plays no part, nothing
/// runs asynchronously, and the trace is streamed: memory does not grow with its length,
/// except in a trace that can hold a jump (version 1.4 or later), where it grows by 16 bytes a
/// mutation (its state's hash, against which a jump's state is checked; a jump whose state is
/// not the one recorded after its target is a divergence, and so is a jump in a trace of an
/// earlier version, which cannot hold one).
///
/// Opened from a path or a ``Trace``, the reader does not rebuild every recorded state
/// itself; ``StructuralReplay`` checks a trace's states and causality without reactor code.
/// It reads and checks the lines on a thread of its own, at most three batches of 128 lines
/// ahead of `reduce` and the hashing on the caller's: a malformed line still fails at its line
/// once the lines before it replayed, and a divergence before it stops the replay there.
///
/// ```swift
/// let result = try ReduceReplay.run(path: "counter.trace.jsonl", through: CounterReactor())
/// if let divergence = result.divergence { print(divergence) }
/// ```
///
/// After a gap, where the recorder dropped events (``TraceEvent/Gap``), the mutations in
/// between are missing: the next mutation is not checked, replay resumes from the state the
/// trace recorded after it, and the result counts the dropped events
/// (``ReplayResult/droppedEventCount``) rather than report a divergence.
///
/// Values at paths the trace redacted (the string `"<redacted>"`) are not compared. A
/// mutation whose payload was redacted may not decode; replay then fails with
/// ``ReplayError/undecodable(line:reason:)``.
@MainActor
public enum ReduceReplay {
  /// Replays the trace `reader` is reading through `reactor`'s `reduce`.
  /// - Parameters:
  ///   - reader: A reader positioned before the first event, verifying states or not.
  ///   - reactor: The reactor whose `reduce` to run; its `Mutation` and `State` must be
  ///     Codable.
  ///   - allowingReactorMismatch: Whether to replay a trace recorded from another reactor
  ///     type (one renamed or moved to another module).
  ///   - willReduce: Called with each mutation's `seq` before `reduce` runs on it: a tool
  ///     names the event at which the reactor trapped.
  /// - Returns: The number of mutations that matched and the first divergence, if any.
  /// - Throws: ``ReplayError`` when the trace cannot be read, was recorded from another
  ///   reactor or with incompatible types, or holds values that do not decode.
  public static func run<R: Reactor>(
    _ reader: TraceReader, through reactor: R, allowingReactorMismatch: Bool = false,
    willReduce: ((_ sequence: Int) -> Void)? = nil
  ) throws(ReplayError) -> ReplayResult {
    try run(
      lines: reader, through: reactor, allowingReactorMismatch: allowingReactorMismatch,
      willReduce: willReduce)
  }

  /// ``run(_:through:allowingReactorMismatch:willReduce:)``, reading lines from `reader`: a
  /// trace reader, or one reading ahead on a thread of its own.
  private static func run<R: Reactor, Lines: ReplayLineSource>(
    lines reader: Lines, through reactor: R, allowingReactorMismatch: Bool,
    willReduce: ((_ sequence: Int) -> Void)?
  ) throws(ReplayError) -> ReplayResult {
    let header = reader.header
    let evolution = try ReplayChecks.check(
      header, for: R.self, allowingReactorMismatch: allowingReactorMismatch,
      using: [.mutation, .state])
    guard CodableValues.isCodable(R.Mutation.self) else { throw .notCodable("Mutation") }
    guard CodableValues.isCodable(R.State.self) else { throw .notCodable("State") }
    guard case .json(let initialJSON) = header.initialState else {
      throw .missingValue(line: 1, what: "initial state")
    }
    // Fields added to State since the recording start from the reactor's initial state, and
    // states are compared on the fields the trace knows.
    let addedFields = evolution.addedStateFields
    let knownState = addedFields.isEmpty ? nil : header.schema.state.shape
    var state: R.State
    do {
      var json = initialJSON
      if knownState != nil, let current = try CodableValues.encode(reactor.initialState) {
        json = StateComparison.overlaying(initialJSON, on: current)
      }
      state = try CodableValues.decodeOrThrow(R.State.self, from: json)
    } catch {
      if !addedFields.isEmpty { throw .incompatibleSchema(addedFields) }
      throw .undecodable(line: 1, reason: "initial state: \(error)")
    }
    let isRedacted = !header.redactions.isEmpty
    var actions = LabelCache()
    let mutations = DecodedValueCache<R.Mutation>()
    // Unwrapped once: in this unspecialized code, an optional closure of `R.State` costs a
    // generic copy and destroy at every use.
    guard let encodeState = CodableValues.encoder(for: R.State.self),
      let hashState = CodableValues.canonicalHasher(for: R.State.self)
    else { throw .notCodable("State") }
    // A redacted trace compares every state value by value: no hash to compare bytes with;
    // nor does a trace whose State has gained fields.
    let comparesHashes = !isRedacted && knownState == nil
    // The recorded state before the current mutation. After a step whose replayed state has
    // the recorded hash, it is that replayed state, encoded only if the next step needs it:
    // the recorded one is rebuilt from its snapshot or diff only where the hashes differ.
    var recordedBefore = TraceHeader.State.json(initialJSON)
    // Whether the recorded state before is the replayed state before the current mutation
    // (kept as a plain copy: cheaper, in this unspecialized code, than an enum of the two).
    var beforeIsReplayed = false
    var replayedBefore = state
    var matched = 0
    var dropped = 0
    var isAfterGap = false
    // The recorded states' hashes, to check a jump's state against its target's (issue 43).
    var recordedHashes = RecordedStateHashes(startingWith: header)
    // The recorded state after the mutation last read, rebuilt from the one before it, which
    // it replaces.
    func rebuildRecorded(sequence: Int) throws(ReplayError) -> JSONValue {
      var before = recordedBefore
      if beforeIsReplayed {
        do {
          before = .json(try encodeState(replayedBefore))
        } catch {
          throw .undecodable(
            line: reader.lineNumber, reason: "the replayed state does not encode: \(error)")
        }
      }
      let after = try rebuild(
        before, after: reader.lastMutation(), sequence: sequence, reader: reader)
      recordedBefore = .json(after)
      beforeIsReplayed = false
      return after
    }
    // The mutation of a recorded line, decoded (or taken from the cache) and named in errors.
    func decodedMutation(
      _ value: JSONValue, line: Int, sequence: Int, label: String
    ) throws(ReplayError) -> R.Mutation {
      if let index = mutations.index(of: value) { return mutations.value(at: index) }
      let mutation = try ReplayChecks.decode(
        R.Mutation.self, from: value, of: .mutation, evolution: evolution, line: line,
        sequence: sequence, label: label
      ) { try CodableValues.decodeOrThrow(R.Mutation.self, from: $0) }
      mutations.remember(mutation, for: value)
      return mutation
    }
    // Lines as a replay reads them: an action's or a mutation's few fields, not its event.
    while let line = try ReplayChecks.nextLine(reader) {
      switch line {
      case .action(let id, let label):
        actions.insert(label, for: id)
      case .mutation(let recorded):
        let sequence = recorded.sequence
        recordedHashes.record(recorded.stateHash, at: sequence)
        if isAfterGap {
          // The state before this mutation is missing: take the recorded one after it.
          let recordedState = try rebuildRecorded(sequence: sequence)
          do {
            state = try CodableValues.decodeOrThrow(R.State.self, from: recordedState)
          } catch {
            throw .undecodable(line: reader.lineNumber, reason: "recorded state: \(error)")
          }
          isAfterGap = false
          continue
        }
        let line = reader.lineNumber
        guard let value = recorded.value else { throw .missingValue(line: line, what: "mutation") }
        let mutation = try decodedMutation(
          value, line: line, sequence: sequence, label: recorded.label)
        willReduce?(sequence)
        state = reactor.reduce(state: state, mutation: mutation)
        let replayedJSON: JSONValue
        do {
          // Equal hashes: the replayed state is the recorded one (the hash of a state's
          // canonical JSON is what the trace records for it). Hashed from its canonical
          // bytes, written without building its JSON tree.
          if comparesHashes {
            if try hashState(state) == recorded.stateHash {
              replayedBefore = state
              beforeIsReplayed = true
              matched += 1
              continue
            }
          }
          replayedJSON = try encodeState(state)
        } catch {
          throw .undecodable(line: line, reason: "the replayed state does not encode: \(error)")
        }
        let recordedState = try rebuildRecorded(sequence: sequence)
        var compared = replayedJSON
        if let knownState { compared = StateComparison.projecting(compared, onto: knownState) }
        if isRedacted { compared = StateComparison.masking(compared, like: recordedState) }
        if compared != recordedState {
          let divergence = ReplayDivergence(
            sequence: sequence, line: line, mutation: recorded.label,
            action: recorded.action.flatMap { actions[$0] },
            reason: "reduce returned a different state",
            diff: StateComparison.stateDiff(
              recorded: recordedState, replayed: state, replayedJSON: compared,
              as: R.State.self))
          return ReplayResult(
            stepsChecked: matched, divergence: divergence, warnings: reader.warnings,
            schemaChanges: evolution.changes, droppedEventCount: dropped)
        }
        matched += 1
      case .event(let event):
        let sequence = event.sequence
        switch event.kind {
        case .gap(let gap):
          dropped += gap.droppedEvents
          isAfterGap = true
          recordedHashes.record(nil, at: sequence)
        case .jump(let jump):
          // Set from outside the app: the replay goes on from the recorded state, as the run
          // did (issue 43), once it is the state recorded after the jump's target.
          let actual = jump.state.hash
          if let problem = recordedHashes.problem(with: jump, at: sequence, actual: actual) {
            return ReplayResult(
              stepsChecked: matched,
              divergence: ReplayDivergence(
                sequence: sequence, line: reader.lineNumber, mutation: nil, action: nil,
                reason: problem, diff: nil),
              warnings: reader.warnings, schemaChanges: evolution.changes,
              droppedEventCount: dropped)
          }
          recordedHashes.record(actual, at: sequence)
          guard case .json(var json) = jump.state else {
            throw .missingValue(line: reader.lineNumber, what: "state")
          }
          recordedBefore = .json(json)
          beforeIsReplayed = false
          do {
            if knownState != nil, let current = try CodableValues.encode(reactor.initialState) {
              json = StateComparison.overlaying(json, on: current)
            }
            state = try CodableValues.decodeOrThrow(R.State.self, from: json)
          } catch {
            throw .undecodable(line: reader.lineNumber, reason: "jump's state: \(error)")
          }
        default:
          break
        }
      }
    }
    return ReplayResult(
      stepsChecked: matched, divergence: nil, warnings: reader.warnings,
      schemaChanges: evolution.changes, droppedEventCount: dropped)
  }

  /// `reader`, set to leave the state changes of mutations unparsed until they are needed.
  ///
  /// They are needed where a replayed state's hash differs from the recorded one. A redacted
  /// trace compares every state value by value, so its reader parses them all.
  private static func hashComparing(_ reader: TraceReader) -> TraceReader {
    // Whether the State gained fields is known only against the reactor's types: a replay
    // that finds it does not compare hashes, and parses every state change where it needs it.
    reader.skipsStateChanges = reader.header.redactions.isEmpty
    return reader
  }

  /// The state a mutation event recorded (``TraceReader/lastMutation()``, its state change
  /// parsed), rebuilt from the recorded state before it, and checked against the event's hash
  /// as a reader verifying states checks it.
  private static func rebuild(
    _ before: TraceHeader.State, after mutation: TraceEvent.Mutation, sequence: Int,
    reader: some ReplayLineSource
  ) throws(ReplayError) -> JSONValue {
    let line = reader.lineNumber
    var state = before
    do throws(TraceFormatError) {
      try state.apply(mutation.state)
    } catch {
      throw .trace(.malformedLine(path: reader.path, line: line, reason: error.description))
    }
    let actual = state.hash
    guard actual == mutation.stateHash else {
      throw .trace(
        .stateMismatch(
          path: reader.path, line: line, sequence: sequence, expected: mutation.stateHash,
          actual: actual))
    }
    guard case .json(let json) = state else { throw .missingValue(line: line, what: "state") }
    return json
  }

  /// Replays the trace file at `path` through `reactor`'s `reduce`.
  /// - Parameters:
  ///   - path: The trace file.
  ///   - reactor: The reactor whose `reduce` to run.
  ///   - allowingReactorMismatch: Whether to replay a trace recorded from another reactor
  ///     type.
  ///   - willReduce: Called with each mutation's `seq` before `reduce` runs on it.
  /// - Returns: The number of mutations that matched and the first divergence, if any.
  /// - Throws: ``ReplayError``, as ``run(_:through:allowingReactorMismatch:willReduce:)`` does.
  public static func run<R: Reactor>(
    path: String, through reactor: R, allowingReactorMismatch: Bool = false,
    willReduce: ((_ sequence: Int) -> Void)? = nil
  ) throws(ReplayError) -> ReplayResult {
    let lines = try ReadAheadReplayReader(
      hashComparing(ReplayChecks.open(path, verifyingStates: false)))
    defer { lines.close() }
    return try run(
      lines: lines, through: reactor, allowingReactorMismatch: allowingReactorMismatch,
      willReduce: willReduce)
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
    let lines = try ReadAheadReplayReader(
      hashComparing(ReplayChecks.open(trace.declaringItsJumps, verifyingStates: false)))
    defer { lines.close() }
    return try run(
      lines: lines, through: reactor, allowingReactorMismatch: allowingReactorMismatch,
      willReduce: nil)
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
