import ReactorDiagrams
import ReactorExploration
import ReactorScript
import ReactorStateMachines
import ReactorTracing

/// The reactor types of sessions, each with the lanes of its reactors merged: what `explore`
/// and `coverage` work on per type for a session.
///
/// A type's alphabet is the distinct actions sent to its reactors (by the user or by other
/// reactors), its abstraction the one `render transitions` infers for it from its lanes (the
/// fields a state machine of the type keeps), its metadata the first session's.
struct SessionReactorTypes {
  /// One reactor type and its reactors' lanes.
  struct ReactorType {
    /// The type as sessions record it: `ReactorExamples.TaskCellReactor`.
    var type: String
    /// Each reactor's lane as a trace of one reactor, with its id in its session.
    var lanes: [(reactor: Int, bytes: [UInt8])] = []
    /// The distinct actions sent to the type's reactors, in order of first appearance.
    var alphabet: [JSONValue] = []
    /// The abstraction inferred from the lanes.
    var abstraction = StateAbstraction.wholeState

    /// `TaskCellReactor`.
    var shortName: String { ReactorIntroduction.shortTypeName(type) }

    /// Openers of the lanes, for the readers of traces.
    var openers: [(reactor: Int?, open: () throws -> TraceReader)] {
      lanes.map { lane in (lane.reactor, { try TraceReader(bytes: lane.bytes, name: type) }) }
    }

    /// A whole state's abstract state: the fields the abstraction keeps, `(any state)` when
    /// it keeps none.
    func abstractState(_ state: JSONValue) -> String {
      let fields = abstraction.fields(of: .json(state))
      return fields.isEmpty ? "(any state)" : fields.map(\.text).joined(separator: ", ")
    }
  }

  /// The first session's metadata.
  var metadata: [String: String] = [:]
  /// The types in order of their first reactor's introduction.
  var types: [ReactorType] = []
  /// How many reactors the sessions hold.
  var reactorCount = 0

  /// Reads the sessions and groups their lanes by type.
  /// - Throws: ``CommandFailure`` for a file that is no session, or a read error.
  init(sessions: [String]) throws {
    var index: [String: Int] = [:]
    var seen: [String: Set<JSONValue>] = [:]
    for (position, path) in sessions.enumerated() {
      guard SessionReplayRun.isSession(path) else {
        throw CommandFailure.unusableInput(
          "\(path) is the trace of one reactor, not a session: give sessions only, or traces "
            + "of one reactor only")
      }
      let session = try SessionTrace(contentsOf: path)
      if position == 0 { metadata = session.header.metadata }
      for introduction in session.reactors {
        guard let lane = session.lane(of: introduction.reactor) else { continue }
        reactorCount += 1
        let type = introduction.type
        if index[type] == nil {
          index[type] = types.count
          types.append(ReactorType(type: type))
        }
        types[index[type]!].lanes.append((introduction.reactor, lane.serialized))
      }
      for event in session.events {
        guard case .reactor(let reactor, .action(let action)) = event.kind,
          action.source == .sent, let value = action.value,
          let type = session.reactors.first(where: { $0.reactor == reactor })?.type,
          let position = index[type],
          seen[type, default: []].insert(ScriptCase.expanded(value)).inserted
        else { continue }
        types[position].alphabet.append(value)
      }
    }
    metadata = metadata.filter { $0.key != ScriptedEvents.metadataKey }
    for position in types.indices {
      types[position].abstraction = try StateAbstraction.inferred(
        fromTraces: types[position].openers.map(\.open))
    }
  }

  /// What exploring one type of a session gave.
  enum Outcome {
    /// The type's explored graph.
    case explored(Exploration)
    /// Why the type was not explored: not registered, sent no action, or its exploration
    /// could not run (a state that is not Encodable, an action that does not decode).
    case skipped(String)
  }

  /// Explores a registered type from its registered factory, its alphabet the actions the
  /// sessions sent to its reactors.
  @MainActor
  static func explore(
    _ type: ReactorType, metadata: [String: String], arguments: ExplorationArguments
  ) async -> Outcome {
    guard let entry = ReactorRegistry.current.entry(named: type.type) else {
      return .skipped("not registered, so not explored")
    }
    guard !type.alphabet.isEmpty else { return .skipped("sent no action, so not explored") }
    defer { ReactorTrap.clear() }
    let inputs = arguments.metadata(over: metadata)
    do {
      return .explored(
        try await entry.explore(type.alphabet, inputs, arguments.options) { script in
          ReactorTrap.running(
            ExplorationRun.crashReport(script, reactor: type.type, metadata: inputs),
            exitCode: ReactorTrap.exitCode)
        })
    } catch {
      return .skipped("not explored: \(error.description)")
    }
  }

  /// `1 state`, `2 states`.
  static func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  /// The one line refusing an option that has no meaning for sessions.
  static func refuse(_ options: [(name: String, isGiven: Bool)]) throws(CommandFailure) {
    guard let given = options.first(where: \.isGiven) else { return }
    throw .unusableInput(
      "\(given.name) does not apply to sessions: each reactor type is explored with the "
        + "actions its reactors were sent, its states seen through the type's abstraction")
  }
}
