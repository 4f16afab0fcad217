import ArgumentParser
import ReactorExploration
import ReactorScript
import ReactorTracing

/// What `explore` and `coverage` read: the alphabet's script and traces, and the recordings
/// measured, every file through ``SessionReader`` (a trace of one reactor is a session of one
/// lane, reactor 1), their reactors' lanes grouped by reactor type.
///
/// A type's alphabet is the actions of `--actions` and `--actions-from`, then the distinct
/// actions sent to the type's reactors (by the user or by other reactors), in order of first
/// appearance. The metadata is the script's, or else the first file's, under `--meta`.
struct ExplorationInputs {
  /// One reactor of a recording: its lane, a trace of that reactor alone.
  struct Lane {
    /// The recording it was read from.
    var path: String
    /// Its id in the recording (1 for a trace of one reactor).
    var reactor: Int
    /// Its type as recorded: `ReactorExamples.TaskCellReactor`.
    var type: String
    /// The lane's bytes, a trace of format 1.
    var bytes: [UInt8]
  }

  /// One reactor type and its reactors' lanes.
  struct ReactorType {
    /// The type as recorded: `ReactorExamples.TaskCellReactor`.
    var type: String
    /// Its reactors' lanes.
    var lanes: [Lane] = []
    /// The actions to explore it with.
    var alphabet: [JSONValue] = []

    /// `TaskCellReactor`.
    var shortName: String { ReactorIntroduction.shortTypeName(type) }

    /// Openers of the lanes, with each reactor's id, for the readers of traces.
    var openers: [(reactor: Int?, open: () throws -> TraceReader)] {
      lanes.map { lane in (lane.reactor, { try TraceReader(bytes: lane.bytes, name: type) }) }
    }

    /// The abstraction `render transitions` infers for the type from its lanes (the fields a
    /// state machine of the type keeps).
    /// - Throws: A lane's read error.
    func abstraction() throws -> StateAbstraction {
      try StateAbstraction.inferred(fromTraces: openers.map(\.open))
    }
  }

  /// The metadata for the reactors' factories.
  var metadata: [String: String] = [:]
  /// The actions of `--actions` and `--actions-from`, distinct, in order of first appearance.
  var given: [JSONValue] = []
  /// How many recordings were read.
  var recordingCount = 0
  /// The reactor the script's header names, or else the first file's first reactor's type.
  var reactor: String?
  /// The reactor the script's header names, or the first alphabet trace's first reactor.
  var givenReactor: String?
  /// The lanes of the recordings, in order.
  var lanes: [Lane] = []
  /// The recordings' reactor types in order of their first reactor's introduction.
  var types: [ReactorType] = []
  /// The recordings that hold one reactor: traces, or sessions of one reactor.
  var oneReactorRecordings: [String] = []

  /// Whether every recording holds one reactor: a trace, or a session of one reactor.
  var isOneReactorEach: Bool { oneReactorRecordings.count == recordingCount }

  /// Reads the script and traces of `arguments`, then `recordings`.
  /// - Throws: The script's or a file's error.
  init(_ arguments: ExplorationArguments, recordings: [String] = []) throws {
    var seen: Set<JSONValue> = []
    var base: [String: String] = [:]
    if let path = arguments.script {
      let script = try ReactorScript(path: path)
      reactor = script.reactor
      base = script.metadata
      for step in script.steps {
        if case .action(let value) = step.input, seen.insert(ScriptCase.expanded(value)).inserted {
          given.append(value)
        }
      }
    }
    for path in arguments.actionTraces {
      let reader = try SessionReader(path: path, verifyingStates: false)
      while let event = try reader.next() {
        if case .introduced(let introduction) = event.kind, reactor == nil {
          reactor = introduction.type
          base = Self.metadata(of: reader.header)
        }
        if case .reactor(_, .action(let action)) = event.kind, case .sent = action.source,
          let value = action.value, seen.insert(ScriptCase.expanded(value)).inserted
        {
          given.append(value)
        }
      }
    }
    givenReactor = reactor
    var index: [String: Int] = [:]
    var typeSeen: [String: Set<JSONValue>] = [:]
    for path in recordings {
      let session = try SessionTrace(contentsOf: path)
      recordingCount += 1
      let introductions = session.reactors
      if introductions.count == 1 { oneReactorRecordings.append(path) }
      for introduction in introductions {
        guard let lane = session.lane(of: introduction.reactor) else { continue }
        let type = introduction.type
        if reactor == nil {
          reactor = type
          base = Self.metadata(of: session.header)
        }
        if index[type] == nil {
          index[type] = types.count
          types.append(ReactorType(type: type, alphabet: given))
          typeSeen[type] = seen
        }
        let added = Lane(
          path: path, reactor: introduction.reactor, type: type, bytes: lane.serialized)
        lanes.append(added)
        types[index[type]!].lanes.append(added)
      }
      for event in session.events {
        guard case .reactor(let id, .action(let action)) = event.kind, action.source == .sent,
          let value = action.value,
          let type = introductions.first(where: { $0.reactor == id })?.type,
          let position = index[type],
          typeSeen[type, default: []].insert(ScriptCase.expanded(value)).inserted
        else { continue }
        types[position].alphabet.append(value)
      }
    }
    metadata = arguments.metadata(over: base)
  }

  /// Keeps the session's reactor types `wanted` (all when empty), and gives the actions given
  /// to the types they are for.
  ///
  /// The actions of `--actions` and `--actions-from` replace the actions their reactors were
  /// sent for the type the script names, else for the types of `--reactor-type`. The other
  /// types keep the actions their reactors were sent.
  /// - Throws: ``CommandFailure/unusableInput(_:)`` for a wanted type the sessions do not
  ///   hold, or given actions for no type.
  mutating func focus(on wanted: [String]) throws(CommandFailure) {
    func matches(_ type: ReactorType, _ name: String) -> Bool {
      type.type == name || type.shortName == name
        || ReactorRegistry.current.registeredName(matching: name) == type.type
    }
    for name in wanted where !types.contains(where: { matches($0, name) }) {
      throw .unusableInput(
        "no reactor of type '\(name)' in the session; its types: "
          + types.map(\.shortName).joined(separator: ", "))
    }
    let targets: [String]
    if let givenReactor {
      guard let type = types.first(where: { matches($0, givenReactor) }) else {
        throw .unusableInput(
          "the actions given are for \(givenReactor), which the session does not hold; its "
            + "types: " + types.map(\.shortName).joined(separator: ", "))
      }
      targets = [type.type]
    } else {
      targets = types.filter { type in wanted.contains { matches(type, $0) } }.map(\.type)
    }
    if !given.isEmpty, targets.isEmpty {
      throw .unusableInput(
        "--actions and --actions-from on a session are the alphabet of one reactor type: give "
          + #"a script whose first line names it ({"reactor": "TaskCellReactor"}) or "#
          + "--reactor-type")
    }
    for index in types.indices {
      let sent = Array(types[index].alphabet.dropFirst(given.count))
      types[index].alphabet = !given.isEmpty && targets.contains(types[index].type) ? given : sent
    }
    if !wanted.isEmpty {
      types.removeAll { type in !wanted.contains { matches(type, $0) } }
    }
  }

  /// The alphabet to explore `type` with: the given actions, then those sent to its reactors.
  func alphabet(of type: String) -> [JSONValue] {
    types.first { $0.type == type }?.alphabet ?? given
  }

  /// A recording's metadata without the scripted events' key, for the factory.
  private static func metadata(of header: SessionHeader) -> [String: String] {
    header.metadata.filter { $0.key != ScriptedEvents.metadataKey }
  }
}
