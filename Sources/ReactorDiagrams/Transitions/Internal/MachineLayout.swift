import Foundation

/// Where `dot` put the nodes, edges and labels of one graph laid out on its own, read back
/// from Graphviz's `json` output: what ``SessionTransitions/pinnedGraph(limit:textMeasurement:)``
/// places in a box of its page.
///
/// The box of a graph laid out alone holds every label `dot` drew (it grows the graph's box
/// after placing edge labels), unlike a cluster's box, which `dot` fixes before an edge's
/// label follows its spline.
struct MachineLayout {
  /// A point of the layout, in points, y upward.
  struct Point {
    var x: Double
    var y: Double
  }

  /// The graph's width and height; its box starts at (0, 0).
  var width: Double
  var height: Double
  /// Where the graph's title is centred.
  var title: Point?
  /// Each node's centre, by node name (`n3`).
  var nodes: [String: Point] = [:]
  /// Each edge's spline (`e,x,y x,y …`) and label centre, by `tail head` names.
  var edges: [String: (spline: String, label: Point?)] = [:]

  /// Reads a layout from Graphviz's `json` output.
  ///
  /// - Throws: ``GraphvizError/layoutFailed(engine:message:)`` when the output is not a
  ///   layout Graphviz writes.
  init(json bytes: [UInt8]) throws(GraphvizError) {
    func failure(_ what: String) -> GraphvizError {
      .layoutFailed(engine: .dot, message: "unreadable layout: \(what)")
    }
    guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
      let box = (root["bb"] as? String).flatMap(Self.numbers), box.count == 4
    else { throw failure("no bounding box") }
    width = box[2] - box[0]
    height = box[3] - box[1]
    title = (root["lp"] as? String).flatMap(Self.point)
    var names: [Int: String] = [:]
    for object in root["objects"] as? [[String: Any]] ?? [] {
      guard let name = object["name"] as? String else { continue }
      if let id = object["_gvid"] as? Int { names[id] = name }
      if let pos = object["pos"] as? String {
        guard let point = Self.point(pos) else { throw failure("node \(name) at \(pos)") }
        nodes[name] = point
      }
    }
    for edge in root["edges"] as? [[String: Any]] ?? [] {
      guard let tail = (edge["tail"] as? Int).flatMap({ names[$0] }),
        let head = (edge["head"] as? Int).flatMap({ names[$0] }),
        let spline = edge["pos"] as? String
      else { throw failure("an edge without ends or spline") }
      edges[tail + " " + head] = (spline, (edge["lp"] as? String).flatMap(Self.point))
    }
  }

  /// `text` (`x,y` or a spline's `e,x,y x,y …`) moved by `dx`, `dy`.
  static func moved(_ text: String, dx: Double, dy: Double) -> String {
    text.split(separator: " ").map { token in
      var parts = token.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      let start = parts.first == "e" || parts.first == "s" ? 1 : 0
      guard parts.count >= start + 2, let x = Double(parts[start]), let y = Double(parts[start + 1])
      else { return String(token) }
      parts[start] = format(x + dx)
      parts[start + 1] = format(y + dy)
      return parts.joined(separator: ",")
    }.joined(separator: " ")
  }

  /// A coordinate as Graphviz writes one: at most two decimals, no trailing zeros.
  static func format(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    if rounded == rounded.rounded() { return String(Int(rounded)) }
    var text = String(format: "%.2f", rounded)
    while text.hasSuffix("0") { text.removeLast() }
    return text
  }

  private static func numbers(_ text: String) -> [Double]? {
    let values = text.split(separator: ",").map { Double($0.filter { $0 != "!" }) }
    return values.contains(nil) ? nil : values.compactMap { $0 }
  }

  private static func point(_ text: String) -> Point? {
    guard let values = numbers(text), values.count >= 2 else { return nil }
    return Point(x: values[0], y: values[1])
  }
}
