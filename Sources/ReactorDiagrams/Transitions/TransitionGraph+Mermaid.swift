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
    for state in states {
      // `=` rather than `: `, which Mermaid would need as an entity code.
      let label = state.fields.prefix(Self.fieldLines)
        .map { field in field.name.map { $0 + "=" + field.shown } ?? field.shown }
        .joined(separator: ", ")
      lines.append("    state \"\(Self.mermaidEscaped(label))\" as \(state.id)")
    }
    for state in states where state.isInitial {
      lines.append("    [*] --> \(state.id)")
    }
    let showsSingleCounts = traceCount > 1 && Set(transitions.map(\.count)).count > 1
    for transition in transitions {
      let text = Self.edgeLines([transition], showsSingleCounts).joined(separator: ", ")
      lines.append(
        "    \(states[transition.source].id) --> \(states[transition.target].id): "
          + Self.mermaidEscaped(text))
    }
    if let finalState {
      lines.append("    \(states[finalState].id) --> [*]")
      lines.append("    classDef final fill:#fff3b0,stroke:#b58900,stroke-width:2px")
      lines.append("    class \(states[finalState].id) final")
    }
    return lines.joined(separator: "\n") + "\n"
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
