public import ReactorStateMachines
public import ReactorTracing

/// The state machines of a session: one per reactor type, the lanes of every reactor of the
/// type merged into one ``TransitionGraph``, drawn as clusters of one page.
///
/// Each cluster is titled by the type and how many reactors it merges
/// (`TaskCellReactor · 7 reactors merged`), and each of its edges ends with how many of them
/// took it (`2 of 7 reactors`). States become nodes by the abstraction inferred for each type
/// unless told otherwise.
///
/// ```swift
/// let machines = try SessionTransitions(session: SessionTrace(contentsOf: "taskapp.session.jsonl"))
/// let dot = try machines.dotGraph().serialized()
/// ```
public struct SessionTransitions: Sendable {
  /// One reactor type's machine.
  public struct Machine: Sendable {
    /// The type, module-qualified, as the session names it.
    public var type: String
    /// How many reactors of the type the machine merges.
    public var reactorCount: Int
    /// The merged, filtered graph.
    public var graph: TransitionGraph
  }

  /// The machines, in the order their types entered the session.
  public let machines: [Machine]

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
    var types: [String] = []
    var lanes: [String: [[UInt8]]] = [:]
    for introduction in session.reactors {
      let short = ReactorIntroduction.shortTypeName(introduction.type)
      if let reactorType, reactorType != introduction.type, reactorType != short { continue }
      guard let lane = session.lane(of: introduction.reactor) else { continue }
      if lanes[introduction.type] == nil { types.append(introduction.type) }
      lanes[introduction.type, default: []].append(lane.serialized)
    }
    if types.isEmpty {
      throw SessionTransitionsError.unknownReactorType(
        reactorType ?? "",
        known: Set(session.reactors.map { ReactorIntroduction.shortTypeName($0.type) }).sorted())
    }
    var machines: [Machine] = []
    for type in types {
      let bytes = lanes[type] ?? []
      let openers: [() throws -> TraceReader] = bytes.map { lane in
        { try TraceReader(bytes: lane, name: type) }
      }
      var graph = TransitionGraph(abstraction: try abstraction(type, openers))
      for lane in bytes {
        do {
          try graph.add(TraceReader(bytes: lane, name: type))
        } catch let error as TraceReadError {
          throw TransitionGraphError.unreadableTrace(error)
        }
      }
      machines.append(
        Machine(type: type, reactorCount: bytes.count, graph: try graph.filtered(by: filter)))
    }
    self.machines = machines
  }

  /// The machines as one page of clusters for a layout engine to place: ``pinnedGraph(limit:textMeasurement:)``
  /// is the page `render transitions` draws with `dot`.
  ///
  /// `dot` fixes a cluster's box before an edge's label follows the edge's spline, so on this
  /// page a long edge's label can end past its cluster's border; other engines lay the page
  /// out as they do.
  ///
  /// - Parameter limit: The largest machine to draw.
  /// - Returns: A graph for ``GraphvizRenderer``.
  /// - Throws: ``TransitionGraphError/tooLarge(states:transitions:limit:)`` beyond `limit`.
  public func dotGraph(limit: DiagramSizeLimit = .standard) throws(TransitionGraphError)
    -> DOTGraph
  {
    var page: DOTGraph?
    for (index, machine) in machines.enumerated() {
      let drawn = try machine.graph.dotGraph(limit: limit, instanceNoun: "reactors")
      if page == nil {
        page = DOTGraph(
          attributes: drawn.attributes.filter { $0.key != "label" && $0.key != "tooltip" },
          nodeAttributes: [:], edgeAttributes: [:])
        page?.attributes["compound"] = "true"
      }
      page?.addCluster(
        of: drawn, label: .text(Self.title(of: machine)), idPrefix: "t\(index + 1)-")
    }
    return page ?? DOTGraph()
  }

  /// A machine's cluster title: its type and how many reactors it merges.
  static func title(of machine: Machine) -> String {
    let title =
      "\(ReactorIntroduction.shortTypeName(machine.type)) · \(machine.reactorCount) reactor"
      + (machine.reactorCount == 1 ? "" : "s") + " merged"
    // No-break spaces keep a title that sets the cluster's width off its border: viewers'
    // fonts run a little wider than Graphviz measured.
    return "\u{A0}\u{A0}" + title + "\u{A0}\u{A0}"
  }
}
