/// Accumulates indented DOT statements for ``DOTGraph/serialized()``.
struct DOTWriter {
  var text = ""
  var indent = 0

  /// Writes one line at the current indentation.
  mutating func line(_ content: String) {
    text += String(repeating: "  ", count: indent) + content + "\n"
  }

  /// Writes `head [attributes];`, or `head;` when there are no attributes.
  mutating func statement(_ head: String, _ attributes: [String: DOTValue]) {
    guard !attributes.isEmpty else { return line(head + ";") }
    let list = attributes.sorted { $0.key < $1.key }
      .map { DOTEscaping.quoted($0.key) + "=" + Self.token(for: $0.value) }
      .joined(separator: ", ")
    line(head + " [" + list + "];")
  }

  /// Writes a `graph`, `node` or `edge` attribute statement unless there are no attributes.
  mutating func defaults(_ keyword: String, _ attributes: [String: DOTValue]) {
    if !attributes.isEmpty { statement(keyword, attributes) }
  }

  /// Writes a subgraph with a synthetic name numbered by `count`, then its nested subgraphs.
  mutating func write(_ subgraph: DOTSubgraph, count: inout Int) {
    let name = (subgraph.isCluster ? "cluster_" : "subgraph_") + "\(count)"
    count += 1
    line("subgraph " + DOTEscaping.quoted(name) + " {")
    indent += 1
    defaults("graph", subgraph.attributes)
    for node in subgraph.nodes {
      statement(DOTEscaping.quoted(node.name), [:])
    }
    for nested in subgraph.subgraphs {
      write(nested, count: &count)
    }
    indent -= 1
    line("}")
  }

  /// The DOT token for an attribute value: a quoted string or an HTML string.
  private static func token(for value: DOTValue) -> String {
    switch value {
    case .string(let string): DOTEscaping.quoted(string)
    case .label(.text(let text)): DOTEscaping.quotedLabel(text)
    case .label(.html(let html)): "<" + html.markup + ">"
    }
  }
}
