import ReactorDiagrams
import ReactorStateMachines
import ReactorTracing

/// The transitions diagram of a trace as SVG text for the inspector, with a way to find the
/// node of any state; or why there is none.
struct TransitionsEmbedding {
  /// The SVG document, without its XML prolog, or `nil`.
  var svg: String?
  /// Why there is no diagram.
  var note: String?
  /// The SVG node names of the graph's states, by state index.
  var nodeNames: [String] = []
  /// The graph drawn, to find the node of a state; `nil` when there is no diagram.
  private var graph: TransitionGraph?

  /// Reads the traces `openers` open (twice each when the abstraction is inferred) and draws
  /// their merged graph, unless it is too large; `reactors` are the lanes' reactor ids in
  /// their session, in the same order, by which a lane's own stream elements are credited to
  /// its actions.
  init(openers: [() throws -> TraceReader], reactors: [Int], abstraction: StateAbstraction?) {
    var graph: TransitionGraph
    do throws(TransitionGraphError) {
      let chosen: StateAbstraction
      if let abstraction {
        chosen = abstraction
      } else {
        chosen = try StateAbstraction.inferred(fromTraces: openers)
      }
      graph = TransitionGraph(abstraction: chosen)
      for (open, reactor) in zip(openers, reactors) {
        try graph.add(TransitionGraphError.opening(open), sessionReactor: reactor)
      }
    } catch {
      note = "no transitions diagram: \(error.description)"
      return
    }
    let bytes: [UInt8]
    do {
      bytes = try GraphvizRenderer().render(graph.dotGraph(), engine: .dot, format: .svg)
    } catch let error as TransitionGraphError {
      note = "no transitions diagram: \(error.description)"
      return
    } catch {
      note = "no transitions diagram: Graphviz failed: \(error)"
      return
    }
    // From the root element on: the XML prolog and doctype mean nothing inside HTML.
    let root = Array("<svg".utf8)
    let start =
      bytes.indices.first { bytes[$0...].starts(with: root) } ?? bytes.startIndex
    // XML forbids control characters, and one makes the browser refuse the whole SVG; Graphviz
    // writes one for a character reference such as `&#1;` in a tooltip.
    let text = bytes[start...].filter { $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    svg = String(decoding: text, as: UTF8.self)
    nodeNames = graph.states.indices.map { graph.dotNodeName(ofState: $0) }
    self.graph = graph
  }

  /// Whether states are mapped to nodes.
  var hasDiagram: Bool { svg != nil }

  /// Whether a mutation stored as `change` certainly leaves the state in the same node.
  func keepsNode(through change: TraceEvent.StateChange) -> Bool {
    graph?.abstraction.keepsFields(through: change) ?? false
  }

  /// The index of the node of `state`, or -1 when the graph has none.
  func node(of state: TraceHeader.State) -> Int {
    graph?.stateIndex(of: state) ?? -1
  }
}
