import ReactorCore
import ReactorTracing

/// The checks every replay through reactor code makes before it starts.
enum ReplayChecks {
  /// Checks that the trace was recorded from `R` or `dynamicType`, the subclass of `R` a
  /// reactor is (unless allowed otherwise), with a schema that replays through the code using
  /// `roots`, and returns how the types changed.
  static func check<R: Reactor>(
    _ header: TraceHeader, for type: R.Type, dynamicType: R.Type? = nil,
    allowingReactorMismatch: Bool, using roots: Set<SchemaEvolution.Root>
  ) throws(ReplayError) -> SchemaEvolution {
    let current = String(reflecting: dynamicType ?? type)
    if !allowingReactorMismatch, header.reactor != current,
      header.reactor != String(reflecting: type)
    {
      throw .reactorMismatch(recorded: header.reactor, current: current)
    }
    let evolution = SchemaEvolution(
      recorded: header.schema,
      current: TraceSchema(action: R.Action.self, mutation: R.Mutation.self, state: R.State.self))
    let breaking = evolution.breaking(in: roots)
    if !breaking.isEmpty { throw .incompatibleSchema(breaking) }
    return evolution
  }

  /// Decodes a recorded action or mutation value as `type`, naming the schema change its case
  /// went through when there is one and it keeps the value from decoding.
  static func decode<T>(
    _ type: T.Type, from value: JSONValue, of root: SchemaEvolution.Root,
    evolution: SchemaEvolution, line: Int, sequence: Int, label: String,
    decode: (JSONValue) throws -> T
  ) throws(ReplayError) -> T {
    let (changes, mayDecode) = evolution.changes(affecting: value, of: root)
    let event = "\(root == .action ? "action" : "mutation") \(label)"
    func changed() -> ReplayError {
      .changedCase(
        line: line, sequence: sequence, event: event, changes: changes,
        addedCases: evolution.addedCases(of: root))
    }
    guard mayDecode else { throw changed() }
    do {
      return try decode(value)
    } catch {
      if !changes.isEmpty { throw changed() }
      throw .undecodable(line: line, reason: "\(event): \(error)")
    }
  }

  /// Reads the next event, wrapping the reader's error.
  static func next(_ reader: TraceReader) throws(ReplayError) -> TraceEvent? {
    do throws(TraceReadError) {
      return try reader.next()
    } catch {
      throw .trace(error)
    }
  }

  /// Reads the next line as a reduce replay reads it, wrapping the reader's error.
  static func nextLine(_ reader: some ReplayLineSource) throws(ReplayError) -> ReplayLine? {
    do throws(TraceReadError) {
      return try reader.nextReplayLine()
    } catch {
      throw .trace(error)
    }
  }

  /// Opens a trace file.
  static func open(_ path: String, verifyingStates: Bool = true) throws(ReplayError)
    -> TraceReader
  {
    do throws(TraceReadError) {
      return try TraceReader(path: path, verifyingStates: verifyingStates)
    } catch {
      throw .trace(error)
    }
  }

  /// Opens a trace held in memory.
  static func open(_ trace: Trace, verifyingStates: Bool = true) throws(ReplayError)
    -> TraceReader
  {
    do throws(TraceReadError) {
      return try TraceReader(bytes: trace.serialized, verifyingStates: verifyingStates)
    } catch {
      throw .trace(error)
    }
  }

  /// Records `reactor` in memory on `clock` with the trace's redactions, so that the replay's
  /// events compare with the recorded ones.
  @MainActor
  static func recorder<R: Reactor>(
    of reactor: R, header: TraceHeader, clock: any Clock<Duration>
  ) throws(ReplayError) -> InMemoryTraceRecorder<R> {
    do throws(TraceRecordingError) {
      return try InMemoryTraceRecorder(
        recording: reactor,
        options: TraceOptions(
          redactions: header.redactions.map { TraceRedaction($0) }, clock: clock))
    } catch {
      throw .undecodable(line: 1, reason: "the trace's redactions: \(error)")
    }
  }

  /// Makes a recorded jump's state `reactor`'s, as the run did: how mutate replays reproduce
  /// a jump (issue 43).
  /// - Parameters:
  ///   - jump: The recorded jump.
  ///   - reactor: The reactor being replayed.
  ///   - line: The jump's line, for errors.
  /// - Throws: ``ReplayError`` when the state is only described or does not decode.
  @MainActor
  static func perform<R: Reactor>(
    _ jump: TraceEvent.Jump, on reactor: R, line: Int
  ) throws(ReplayError) {
    guard case .json(let json) = jump.state else {
      throw .missingValue(line: line, what: "state")
    }
    let state: R.State
    do {
      state = try CodableValues.decodeOrThrow(R.State.self, from: json)
    } catch {
      throw .undecodable(line: line, reason: "jump's state: \(error)")
    }
    reactor.jump(to: state, event: jump.target, from: jump.external ?? "client")
  }
}
