public import ReactorTracing

/// The state machines of traces and sessions: one per reactor type, the lanes of every
/// reactor of the type merged into one ``TransitionGraph``.
///
/// A trace is a session of one reactor: several traces of one reactor make one machine that
/// merges them, a session makes one machine per type that merges its reactors, and several
/// sessions of the same types merge type by type. States become nodes by the abstraction
/// inferred for each type unless told otherwise.
///
/// ```swift
/// let machines = try SessionTransitions(files: [ReactorLanes(path: "taskapp.session.jsonl")])
/// for machine in machines.machines { print(machine.type, machine.graph.states.count) }
/// ```
public struct SessionTransitions: Sendable {
  /// One reactor type's machine.
  public struct Machine: Sendable {
    /// The type, module-qualified, as the files name it.
    public var type: String
    /// How many reactors of the type the machine merges.
    public var reactorCount: Int
    /// The merged, filtered graph.
    public var graph: TransitionGraph
    /// What the merged lanes are called when counted on an edge (`reactors`): `nil` when each
    /// is a file's only reactor, a trace of its own.
    public var instanceNoun: String?
  }

  /// The machines, in the order their types entered the files.
  public let machines: [Machine]

  /// Whether the files hold more than one reactor type (before `reactorType` chose one).
  public let holdsSeveralTypes: Bool

  /// Builds the machine of each reactor type of `session`.
  ///
  /// - Parameters:
  ///   - session: The session.
  ///   - reactorType: Draw only this type (module-qualified or not); `nil` for every type.
  ///   - filter: What to keep of each machine.
  ///   - abstraction: How a type's states become nodes, given the type and an opener for each
  ///     of its reactors' lanes; the inferred abstraction by default.
  /// - Throws: ``SessionTransitionsError`` for a type the session does not have,
  ///   ``TransitionGraphError`` when a lane cannot be read or a machine filtered, and what
  ///   `abstraction` throws.
  public init(
    session: SessionTrace, reactorType: String? = nil,
    filter: TransitionFilter = TransitionFilter(),
    abstraction: (_ type: String, _ lanes: [() throws -> TraceReader]) throws -> StateAbstraction =
      { _, lanes in try StateAbstraction.inferred(fromTraces: lanes) }
  ) throws {
    try self.init(
      files: [ReactorLanes(session: session)], reactorType: reactorType, filter: filter,
      abstraction: abstraction)
  }

  /// Builds the machine of each reactor type the files hold, merging the lanes of every
  /// reactor of a type across the files.
  ///
  /// - Parameters:
  ///   - files: Traces and sessions, each with the same reactor types.
  ///   - reactorType: Draw only this type (module-qualified or not); `nil` for every type.
  ///   - filter: What to keep of each machine.
  ///   - abstraction: How a type's states become nodes, given the type and an opener for each
  ///     of its reactors' lanes; the inferred abstraction by default.
  ///   - read: Called with each lane's reader once the lane is merged, for what it noticed
  ///     (``TraceReader/warnings``).
  /// - Throws: ``SessionTransitionsError`` for a type the files do not have,
  ///   ``TransitionGraphError`` when files hold different reactors, a lane cannot be read or
  ///   a machine filtered, and what `abstraction` throws.
  public init(
    files: [ReactorLanes], reactorType: String? = nil,
    filter: TransitionFilter = TransitionFilter(),
    abstraction: (_ type: String, _ lanes: [() throws -> TraceReader]) throws -> StateAbstraction =
      { _, lanes in try StateAbstraction.inferred(fromTraces: lanes) },
    read: (TraceReader) -> Void = { _ in }
  ) throws {
    let all = files.first?.types ?? []
    for file in files.dropFirst() where file.types != all {
      throw TransitionGraphError.differentReactors(
        expected: all.joined(separator: ", "), found: file.types.joined(separator: ", "),
        path: file.path)
    }
    var types: [String] = []
    var lanes: [String: [ReactorLanes.Lane]] = [:]
    var nouns: [String: String] = [:]
    for file in files {
      for lane in file.lanes {
        let type = lane.reactor.type
        if let reactorType, reactorType != type, reactorType != lane.reactor.shortType {
          continue
        }
        if lanes[type] == nil { types.append(type) }
        lanes[type, default: []].append(lane)
        if file.lanes.count > 1 { nouns[type] = "reactors" }
      }
    }
    if types.isEmpty {
      throw SessionTransitionsError.unknownReactorType(
        reactorType ?? "", known: Set(all.map(ReactorIntroduction.shortTypeName)).sorted())
    }
    var machines: [Machine] = []
    for type in types {
      let typeLanes = lanes[type] ?? []
      let openers: [() throws -> TraceReader] = typeLanes.map { lane in { try lane.open() } }
      var graph = TransitionGraph(abstraction: try abstraction(type, openers))
      for lane in typeLanes {
        let reader: TraceReader
        do {
          reader = try lane.open()
        } catch {
          throw TransitionGraphError.unreadableTrace(error)
        }
        try graph.add(reader, sessionReactor: lane.reactor.reactor)
        read(reader)
      }
      machines.append(
        Machine(
          type: type, reactorCount: typeLanes.count, graph: try graph.filtered(by: filter),
          instanceNoun: nouns[type]))
    }
    self.machines = machines
    holdsSeveralTypes = all.count > 1
  }
}
