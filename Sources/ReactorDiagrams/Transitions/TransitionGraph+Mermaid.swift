public import ReactorStateMachines

extension TransitionGraph {
  /// Returns the graph as a Mermaid `stateDiagram-v2`, which GitHub renders in Markdown.
  ///
  /// States are declared with generated ids (`state "isLoading=true" as s1`), `[*] --> s0`
  /// marks each initial state and `s2 --> [*]` the final one, which is also styled. Text is
  /// kept on one line and characters Mermaid reads as syntax are written as entity codes
  /// (`#quot;`, `#35;`), so no label can change the diagram.
  ///
  /// ```
  /// stateDiagram-v2
  ///     state "isLoading=false" as s0
  ///     [*] --> s0
  ///     s0 --> s1: setLoading(true)  ← increase ×2
  /// ```
  ///
  /// - Parameter limit: The largest graph to write.
  /// - Returns: The diagram's text, ending in a newline.
  /// - Throws: ``TransitionGraphError/tooLarge(states:transitions:limit:)`` beyond `limit`.
  public func mermaid(limit: DiagramSizeLimit = .standard) throws(TransitionGraphError)
    -> String
  {
    try check(limit)
    var lines = ["stateDiagram-v2"]
    lines += mermaidBody(idPrefix: "", indent: "    ", instanceNoun: nil)
    if let finalState {
      lines.append("    classDef final fill:#fff3b0,stroke:#b58900,stroke-width:2px")
      lines.append("    class \(states[finalState].id) final")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The graph's states and transitions as lines of a `stateDiagram-v2`, each state's id
  /// after `idPrefix` (ids are one namespace across a diagram's composite states), each line
  /// after `indent`; with an `instanceNoun` (`reactors`), a graph merged from several traces
  /// ends each transition's text with how many of them took it (`2 of 7 reactors`), as
  /// ``dotGraph(limit:instanceNoun:)`` ends its edges.
  func mermaidBody(idPrefix: String, indent: String, instanceNoun: String?) -> [String] {
    var lines: [String] = []
    for state in states {
      // `=` rather than `: `, which Mermaid would need as an entity code.
      let label = state.fields.prefix(Self.fieldLines)
        .map { field in field.name.map { $0 + "=" + field.shown } ?? field.shown }
        .joined(separator: ", ")
      lines.append(indent + "state \"\(Self.mermaidEscaped(label))\" as \(idPrefix)\(state.id)")
    }
    for state in states where state.isInitial {
      lines.append(indent + "[*] --> \(idPrefix)\(state.id)")
    }
    let showsSingleCounts = traceCount > 1 && Set(transitions.map(\.count)).count > 1
    for (index, transition) in transitions.enumerated() {
      var text = Self.edgeLines([transition], showsSingleCounts).joined(separator: ", ")
      if let instanceNoun, traceCount > 1 {
        text += ", \(traceCount(taking: [index])) of \(traceCount) \(instanceNoun)"
      }
      lines.append(
        indent + "\(idPrefix)\(states[transition.source].id) --> "
          + "\(idPrefix)\(states[transition.target].id): " + Self.mermaidEscaped(text))
    }
    if let finalState {
      lines.append(indent + "\(idPrefix)\(states[finalState].id) --> [*]")
    }
    return lines
  }

  /// Text with every character Mermaid may read as syntax written as an entity code.
  static func mermaidEscaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "#quot;"
      case "#", ";", ":", "<", ">", "{", "}", "[", "]", "|", "&", "%", "`", "\\":
        result += "#\(scalar.value);"
      case "\u{00}"..."\u{1F}", "\u{7F}": result += " "
      case let hidden where DOTEscaping.isHidden(hidden.value):
        // Shown as `\u{202E}`, never applied.
        result += mermaidEscaped("\\u{" + String(hidden.value, radix: 16, uppercase: true) + "}")
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
