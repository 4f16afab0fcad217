/// Accumulates indented DOT statements, as UTF-8 bytes, for ``DOTGraph/serialized()``.
struct DOTWriter {
  var bytes: [UInt8] = []
  var indent = 0

  /// The text written so far.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Writes one line at the current indentation.
  mutating func line(_ content: String) {
    startLine()
    bytes += content.utf8
    bytes.append(UInt8(ascii: "\n"))
  }

  /// Writes `"name" [attributes];`, or `"name";` when there are no attributes.
  mutating func statement(named name: String, _ attributes: [String: DOTValue]) {
    startLine()
    DOTEscaping.appendQuoted(name, to: &bytes)
    finishStatement(attributes)
  }

  /// Writes `"tail" -> "head" [attributes];` with the given connector (`->` or `--`).
  mutating func statement(
    from tail: String, _ connector: String, to head: String, _ attributes: [String: DOTValue]
  ) {
    startLine()
    DOTEscaping.appendQuoted(tail, to: &bytes)
    bytes += connector.utf8
    DOTEscaping.appendQuoted(head, to: &bytes)
    finishStatement(attributes)
  }

  /// Writes a `graph`, `node` or `edge` attribute statement unless there are no attributes.
  mutating func defaults(_ keyword: String, _ attributes: [String: DOTValue]) {
    guard !attributes.isEmpty else { return }
    startLine()
    bytes += keyword.utf8
    finishStatement(attributes)
  }

  /// Writes a subgraph with a synthetic name numbered by `count`, then its nested subgraphs.
  mutating func write(_ subgraph: DOTSubgraph, count: inout Int) {
    let name = (subgraph.isCluster ? "cluster_" : "subgraph_") + "\(count)"
    count += 1
    startLine()
    bytes += "subgraph ".utf8
    DOTEscaping.appendQuoted(name, to: &bytes)
    bytes += " {\n".utf8
    indent += 1
    defaults("graph", subgraph.attributes)
    for node in subgraph.nodes {
      statement(named: node.name, [:])
    }
    for nested in subgraph.subgraphs {
      write(nested, count: &count)
    }
    indent -= 1
    line("}")
  }

  private mutating func startLine() {
    bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
  }

  /// Writes ` [attributes];` sorted by name, or `;` when there are none, and ends the line.
  private mutating func finishStatement(_ attributes: [String: DOTValue]) {
    if !attributes.isEmpty {
      bytes += " [".utf8
      var isFirst = true
      for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
        if !isFirst { bytes += ", ".utf8 }
        isFirst = false
        DOTEscaping.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: "="))
        append(value)
      }
      bytes += "]".utf8
    }
    bytes += ";\n".utf8
  }

  /// Writes the DOT token for an attribute value: a quoted string or an HTML string.
  private mutating func append(_ value: DOTValue) {
    switch value {
    case .string(let string): DOTEscaping.appendQuoted(string, to: &bytes)
    case .label(.text(let text)): DOTEscaping.appendQuotedLabel(text, to: &bytes)
    case .label(.html(let html)):
      bytes.append(UInt8(ascii: "<"))
      bytes += html.markup.utf8
      bytes.append(UInt8(ascii: ">"))
    }
  }
}
