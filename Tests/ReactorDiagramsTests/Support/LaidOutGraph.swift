import Foundation
import ReactorDiagrams

/// A graph as Graphviz laid it out, read back from its `json` output: each node's box and
/// each piece of text with its measured width, in points.
struct LaidOutGraph {
  struct Box: CustomStringConvertible {
    var minX, minY, maxX, maxY: Double

    func intersects(_ other: Box) -> Bool {
      minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    var description: String {
      String(format: "(%.1f,%.1f)-(%.1f,%.1f)", minX, minY, maxX, maxY)
    }
  }

  struct Text {
    var text: String
    var box: Box
  }

  struct Node {
    var name: String
    var box: Box
    var texts: [Text]
  }

  /// A cluster: its box, its title's lines and the names of the nodes drawn in it.
  struct Cluster {
    var name: String
    var box: Box
    var texts: [Text]
    var nodeNames: [String]
  }

  var nodes: [Node] = []
  /// Each line of each edge label.
  var edgeTexts: [Text] = []
  var clusters: [Cluster] = []

  /// An empty layout, to fill in by hand.
  init() {}

  /// Lays `graph` out with `engine` and reads positions and text widths back.
  init(
    _ graph: DOTGraph, engine: LayoutEngine = .dot, textMeasurement: TextMeasurement = .shaped
  ) throws {
    let bytes = try GraphvizRenderer(textMeasurement: textMeasurement)
      .render(graph, engine: engine, format: .json)
    let root = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] ?? [:]
    let objects = root["objects"] as? [[String: Any]] ?? []
    var names: [Int: String] = [:]
    for object in objects {
      if let id = object["_gvid"] as? Int { names[id] = object["name"] as? String ?? "" }
    }
    for object in objects {
      guard let name = object["name"] as? String, name.hasPrefix("cluster"),
        let bounds = object["bb"] as? String
      else { continue }
      let corners = bounds.split(separator: ",").compactMap { Double($0) }
      guard corners.count == 4 else { continue }
      clusters.append(
        Cluster(
          name: name,
          box: Box(minX: corners[0], minY: corners[1], maxX: corners[2], maxY: corners[3]),
          texts: Self.texts(object["_ldraw_"]),
          nodeNames: (object["nodes"] as? [Int] ?? []).compactMap { names[$0] }))
    }
    for object in objects {
      guard let pos = object["pos"] as? String, let width = object["width"] as? String,
        let height = object["height"] as? String
      else { continue }
      let center = pos.split(separator: ",").compactMap { Double($0.filter { $0 != "!" }) }
      let w = (Double(width) ?? 0) * 72
      let h = (Double(height) ?? 0) * 72
      nodes.append(
        Node(
          name: object["name"] as? String ?? "",
          box: Box(
            minX: center[0] - w / 2, minY: center[1] - h / 2, maxX: center[0] + w / 2,
            maxY: center[1] + h / 2),
          texts: Self.texts(object["_ldraw_"])))
    }
    for edge in root["edges"] as? [[String: Any]] ?? [] {
      edgeTexts += Self.texts(edge["_ldraw_"])
    }
  }

  /// The text operations of an xdot drawing list, each with the box its glyphs cover.
  private static func texts(_ operations: Any?) -> [Text] {
    var size = 14.0
    var result: [Text] = []
    for operation in operations as? [[String: Any]] ?? [] {
      if operation["op"] as? String == "F", let fontSize = operation["size"] as? Double {
        size = fontSize
      }
      guard operation["op"] as? String == "T", let point = operation["pt"] as? [Double],
        let width = operation["width"] as? Double
      else { continue }
      let minX: Double
      switch operation["align"] as? String {
      case "l": minX = point[0]
      case "r": minX = point[0] - width
      default: minX = point[0] - width / 2
      }
      result.append(
        Text(
          text: operation["text"] as? String ?? "",
          box: Box(
            minX: minX, minY: point[1] - size * 0.2, maxX: minX + width,
            maxY: point[1] + size * 0.75)))
    }
    return result
  }

  /// Every line of node text wider or taller than its node, as `node: text`.
  var overflowingTexts: [String] {
    nodes.flatMap { node in
      node.texts.filter { text in
        text.box.minX < node.box.minX - 0.5 || text.box.maxX > node.box.maxX + 0.5
          || text.box.minY < node.box.minY - 0.5 || text.box.maxY > node.box.maxY + 0.5
      }.map { "\(node.name): \($0.text) \($0.box) outside \(node.box)" }
    }
  }

  /// Every line of edge label text that covers part of a node, as `text over node`.
  var edgeTextsOverNodes: [String] {
    edgeTexts.flatMap { text in
      nodes.filter { $0.box.intersects(text.box) }.map {
        "\(text.text) \(text.box) over \($0.name) \($0.box)"
      }
    }
  }
}

extension LaidOutGraph {
  /// Every pair of nodes with text whose boxes overlap, as `a over b`: two labels drawn on
  /// top of each other.
  var overlappingTexts: [String] {
    let texted = nodes.filter { !$0.texts.isEmpty }
    var result: [String] = []
    for (index, node) in texted.enumerated() {
      for other in texted[(index + 1)...] where node.box.intersects(other.box) {
        result.append(
          "\(node.name) \(node.texts.map(\.text)) over \(other.name) \(other.texts.map(\.text))")
      }
    }
    return result
  }
}

extension LaidOutGraph {
  /// Edge label lines whose visible text runs past the border of a cluster they are drawn
  /// in (leading and trailing no-break spaces left out, the rest widened as viewers' fonts
  /// run wider than Graphviz measured), and on a page of clusters, those outside all of them.
  var edgeTextsLeavingClusters: [String] {
    var result: [String] = []
    for text in edgeTexts {
      let characters = Array(text.text)
      guard !characters.isEmpty else { continue }
      let isSpace: (Character) -> Bool = { $0 == "\u{A0}" || $0 == " " }
      let leading = Double(characters.prefix(while: isSpace).count)
      let trailing = Double(characters.reversed().prefix(while: isSpace).count)
      var box = text.box
      let width = box.maxX - box.minX
      let perCharacter = width / Double(characters.count)
      box.minX += perCharacter * leading
      box.maxX -= perCharacter * trailing
      let extra = (box.maxX - box.minX) * 0.02 / 2
      box.minX -= extra
      box.maxX += extra
      if !clusters.isEmpty, !clusters.contains(where: { $0.box.intersects(box) }) {
        result.append("edge text \(text.text) \(box) outside every cluster")
      }
      for cluster in clusters where cluster.box.intersects(box) {
        let inside =
          box.minX >= cluster.box.minX - 0.5 && box.maxX <= cluster.box.maxX + 0.5
          && box.minY >= cluster.box.minY - 0.5 && box.maxY <= cluster.box.maxY + 0.5
        if !inside {
          result.append("\(cluster.name): edge text \(text.text) \(box) leaves \(cluster.box)")
        }
      }
    }
    return result
  }

  /// Every cluster title line outside its cluster (drawn 2 % wider, as viewers do), node not
  /// wholly inside its cluster, and pair of clusters (neither inside the other) whose boxes
  /// overlap.
  var clusterProblems: [String] {
    var result: [String] = []
    func contains(_ outer: Box, _ inner: Box) -> Bool {
      inner.minX >= outer.minX - 0.5 && inner.maxX <= outer.maxX + 0.5
        && inner.minY >= outer.minY - 0.5 && inner.maxY <= outer.maxY + 0.5
    }
    for cluster in clusters {
      // Viewers' fonts run a little wider than Graphviz measured (DejaVu Sans 2 %).
      let widened = cluster.texts.map { text in
        var text = text
        let extra = (text.box.maxX - text.box.minX) * 0.02 / 2
        text.box.minX -= extra
        text.box.maxX += extra
        return text
      }
      for text in widened where !contains(cluster.box, text.box) {
        result.append("\(cluster.name): title \(text.text) \(text.box) outside \(cluster.box)")
      }
      for node in nodes where cluster.nodeNames.contains(node.name) {
        if !contains(cluster.box, node.box) {
          result.append("\(cluster.name): node \(node.name) \(node.box) outside \(cluster.box)")
        }
      }
    }
    for (index, cluster) in clusters.enumerated() {
      for other in clusters[(index + 1)...] where cluster.box.intersects(other.box) {
        if contains(cluster.box, other.box) || contains(other.box, cluster.box) { continue }
        result.append("\(cluster.name) \(cluster.box) overlaps \(other.name) \(other.box)")
      }
    }
    return result
  }
}
