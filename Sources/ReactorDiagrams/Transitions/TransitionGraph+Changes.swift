import Foundation
public import ReactorStateMachines

/// How a transition changed between two sets of runs, for the diagram of a comparison
/// (``TransitionGraph/changeDotGraph(title:marks:limit:)``).
public struct TransitionChangeMark: Sendable, Hashable {
  /// What changed.
  public enum Kind: Sendable, Hashable {
    /// Seen after only: drawn green.
    case added
    /// Seen before only: drawn red and dashed.
    case removed
    /// Its share moved: drawn blue, its width the unchanged edges' times the ratio.
    case shifted(ratio: Double)
    /// How its effects ended moved: drawn purple.
    case outcome
  }

  /// What changed.
  public var kind: Kind
  /// A line added to the edge's label: the counts, the ratio.
  public var note: String

  /// Creates a mark.
  public init(kind: Kind, note: String) {
    self.kind = kind
    self.note = note
  }
}

extension TransitionGraph {
  /// The width of an unchanged edge in a comparison's diagram.
  static let unchangedWidth = 1.2

  /// The union machine of a comparison as a `dot` diagram.
  ///
  /// The nodes are ``dotGraph(limit:)``'s; unchanged transitions grey, the transitions between two states sharing one edge; each
  /// changed transition an edge of its own, added ones green, removed ones red and dashed,
  /// shifted ones blue and thicker or thinner by their ratio, those whose effects' outcomes
  /// moved purple, each labelled with its mark's note. `title` goes above a legend line.
  ///
  /// - Parameters:
  ///   - title: What the diagram compares, one or more lines.
  ///   - marks: The changed transitions, by index in ``transitions``.
  ///   - limit: The largest graph to draw.
  /// - Returns: A graph for the `dot` engine.
  /// - Throws: ``TransitionGraphError/tooLarge(states:transitions:limit:)`` beyond `limit`.
  public func changeDotGraph(
    title: String, marks: [Int: TransitionChangeMark], limit: DiagramSizeLimit = .standard
  ) throws(TransitionGraphError) -> DOTGraph {
    let plain = try dotGraph(limit: limit)
    var graph = DOTGraph(
      kind: plain.kind, attributes: plain.attributes, nodeAttributes: plain.nodeAttributes,
      edgeAttributes: plain.edgeAttributes)
    var ids: [DOTNode.ID] = []
    for node in plain.nodes {
      ids.append(graph.addNode(label: node.label, attributes: node.attributes))
    }
    // The start dot's edges, after the states (the legend has none).
    for edge in plain.edges where edge.tail.index >= states.count {
      graph.addEdge(
        from: ids[edge.tail.index], to: ids[edge.head.index], attributes: edge.attributes)
    }
    var unchanged: [[Int]: [Int]] = [:]
    var order: [[Int]] = []
    for (index, transition) in transitions.enumerated() where marks[index] == nil {
      let pair = [transition.source, transition.target]
      if unchanged[pair] == nil { order.append(pair) }
      unchanged[pair, default: []].append(index)
    }
    let margin = "\u{A0}\u{A0}"
    for pair in order {
      let members = unchanged[pair]!
      let label = Self.edgeLines(members.map { transitions[$0] }, false).map { margin + $0 }
      graph.addEdge(
        from: ids[pair[0]], to: ids[pair[1]], label: .text(label.joined(separator: "\n")),
        attributes: [
          "id": .string("t\(members[0])"), "color": "#9a9a9a", "fontcolor": "#6a6a6a",
          "penwidth": .string(Self.width(Self.unchangedWidth)),
          "tooltip": .string(
            members.map { Self.tooltipLine(transitions[$0]) }.joined(separator: "\n")),
        ])
    }
    for index in marks.keys.sorted() {
      let transition = transitions[index]
      let mark = marks[index]!
      var label = Self.edgeLines([transition], false)
      label.append(mark.note)
      var attributes: [String: DOTValue] = [
        "id": .string("t\(index)"),
        "tooltip": .string(Self.tooltipLine(transition) + "\n" + mark.note),
      ]
      let color: String
      switch mark.kind {
      case .added:
        color = "#1a9641"
        attributes["penwidth"] = "2.5"
      case .removed:
        color = "#d7191c"
        attributes["penwidth"] = "2.5"
        attributes["style"] = "dashed"
      case .shifted(let ratio):
        color = "#2166ac"
        let width = min(8, max(0.3, Self.unchangedWidth * (ratio.isFinite ? ratio : 8)))
        attributes["penwidth"] = .string(Self.width(width))
      case .outcome:
        color = "#7b3294"
        attributes["penwidth"] = .string(Self.width(Self.unchangedWidth))
        attributes["style"] = "bold"
      }
      attributes["color"] = .string(color)
      attributes["fontcolor"] = .string(color)
      graph.addEdge(
        from: ids[transition.source], to: ids[transition.target],
        label: .text(label.map { margin + $0 }.joined(separator: "\n")), attributes: attributes)
    }
    graph.label = .text(
      title + "\ngreen: new; red dashed: gone; blue: share moved (width × ratio); "
        + "purple: effects end differently; grey: unchanged")
    return graph
  }

  /// The union machine of a comparison as a Mermaid `stateDiagram-v2`, each changed
  /// transition's label ending with `[new]`, `[gone]`, `[×ratio]` or `[effects]` and its
  /// mark's note (Mermaid's state diagrams cannot colour single transitions).
  ///
  /// - Parameters:
  ///   - marks: The changed transitions, by index in ``transitions``.
  ///   - limit: The largest graph to write.
  /// - Returns: The diagram's text, ending in a newline.
  /// - Throws: ``TransitionGraphError/tooLarge(states:transitions:limit:)`` beyond `limit`.
  public func changeMermaid(
    marks: [Int: TransitionChangeMark], limit: DiagramSizeLimit = .standard
  ) throws(TransitionGraphError) -> String {
    try check(limit)
    var lines = ["stateDiagram-v2"]
    for state in states {
      let label = state.fields.prefix(Self.fieldLines)
        .map { field in field.name.map { $0 + "=" + field.shown } ?? field.shown }
        .joined(separator: ", ")
      lines.append("    state \"\(Self.mermaidEscaped(label))\" as \(state.id)")
    }
    for (index, transition) in transitions.enumerated() {
      var text = Self.edgeLines([transition], false).joined(separator: ", ")
      if let mark = marks[index] {
        switch mark.kind {
        case .added: text += " [new]"
        case .removed: text += " [gone]"
        case .shifted: text += " [share moved]"
        case .outcome: text += " [effects]"
        }
        text += " " + mark.note
      }
      lines.append(
        "    \(states[transition.source].id) --> \(states[transition.target].id): "
          + Self.mermaidEscaped(text))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func tooltipLine(_ transition: Transition) -> String {
    "\(transition.mutation) ← \(transition.action) ×\(transition.count)"
  }

  /// `2.5`: a width for Graphviz, with one decimal.
  private static func width(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}
