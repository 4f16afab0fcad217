import ReactorDiagrams
import ReactorStateMachines
import ReactorTracing

/// The transitions diagrams of a page: one per reactor type (the lanes of every reactor of
/// the type merged, as `render transitions` merges traces).
struct PageDiagrams {
  private var embeddings: [TransitionsEmbedding] = []
  private var types: [String] = []
  private var indexOfType: [String: Int] = [:]

  /// One diagram per reactor type of a session (or of a trace of one reactor, a session of
  /// one), each drawn from the lanes of that type, read from `lanes` one at a time.
  /// - Parameters:
  ///   - lanes: The lanes of every reactor.
  ///   - abstraction: How states become nodes, as `render transitions` draws them; `nil` to
  ///     infer it for each type from its lanes.
  /// - Throws: ``InspectorError/abstractionOfSeveralTypes(_:)`` for an abstraction when the
  ///   lanes are of several types.
  init(lanes: ReactorLanes, abstraction: StateAbstraction?) throws(InspectorError) {
    let types = lanes.types
    if abstraction != nil, types.count > 1 { throw .abstractionOfSeveralTypes(types.count) }
    for type in types {
      let lanesOfType = lanes.lanes.filter { $0.reactor.type == type }
      let openers: [() throws -> TraceReader] = lanesOfType.map { lane in { try lane.open() } }
      append(
        type: type,
        TransitionsEmbedding(
          openers: openers, reactors: lanesOfType.map(\.reactor.reactor), abstraction: abstraction))
    }
  }

  private mutating func append(type: String, _ embedding: TransitionsEmbedding) {
    indexOfType[type] = embeddings.count
    types.append(type)
    embeddings.append(embedding)
  }

  /// The index of the diagram of reactors of `type`, or `nil` when it has none.
  func diagram(ofType type: String) -> Int? {
    guard let index = indexOfType[type], embeddings[index].hasDiagram else { return nil }
    return index
  }

  /// Whether a mutation stored as `change` certainly leaves the state in the same node.
  func keepsNode(through change: TraceEvent.StateChange, in diagram: Int) -> Bool {
    embeddings[diagram].keepsNode(through: change)
  }

  /// The index of the node of `state` in a diagram, or -1 when it has none.
  func node(of state: TraceHeader.State, in diagram: Int) -> Int {
    embeddings[diagram].node(of: state)
  }

  /// Why the first diagram that is missing is missing, or `nil` when none is.
  var note: String? {
    zip(types, embeddings).first { $0.1.note != nil }.map { type, embedding in
      types.count == 1 ? embedding.note : "\(type): \(embedding.note ?? "")"
    } ?? nil
  }

  /// The diagrams as the page reads them: type, SVG or null, node names, note or null.
  var json: [JSONValue] {
    zip(types, embeddings).map { type, embedding in
      var object = JSONObject()
      object["type"] = .string(type)
      object["svg"] = embedding.svg.map(JSONValue.string) ?? .null
      object["nodeNames"] = .array(embedding.nodeNames.map(JSONValue.string))
      object["note"] = embedding.note.map(JSONValue.string) ?? .null
      return .object(object)
    }
  }
}
