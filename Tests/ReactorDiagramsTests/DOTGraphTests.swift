import ReactorDiagrams
import Testing

@Suite("DOT graph model")
struct DOTGraphTests {
  private static func sampleGraph(reversingAttributeOrder: Bool) -> DOTGraph {
    var attributes: [(String, DOTValue)] = [("rankdir", "LR"), ("nodesep", "0.4")]
    if reversingAttributeOrder { attributes.reverse() }
    var graph = DOTGraph()
    for (name, value) in attributes { graph.attributes[name] = value }
    graph.label = "Counter \"reactor\""
    graph.nodeAttributes["shape"] = "box"
    graph.edgeAttributes["fontsize"] = "10"
    let idle = graph.addNode(label: "Idle", attributes: ["style": "rounded", "color": "gray"])
    let loading = graph.addNode(label: "Loading")
    let done = graph.addNode(label: .html(.bold("Done")))
    graph.addEdge(from: idle, to: loading, xlabel: "refresh")
    graph.addEdge(from: loading, to: done, label: "loaded", attributes: ["style": "dashed"])
    graph.addSubgraph(
      DOTSubgraph(
        label: "busy", nodes: [loading],
        subgraphs: [DOTSubgraph(isCluster: false, attributes: ["rank": "same"], nodes: [done])]))
    return graph
  }

  @Test func serializedTextIsExactDOT() {
    let expected = #"""
      digraph "G" {
        graph ["label"="Counter \"reactor\"", "nodesep"="0.4", "rankdir"="LR"];
        node ["shape"="box"];
        edge ["fontsize"="10"];
        "n0" ["color"="gray", "label"="Idle", "style"="rounded"];
        "n1" ["label"="Loading"];
        "n2" ["label"=<<B>Done</B>>];
        subgraph "cluster_0" {
          graph ["label"="busy"];
          "n1";
          subgraph "subgraph_1" {
            graph ["rank"="same"];
            "n2";
          }
        }
        "n0" -> "n1" ["xlabel"="refresh"];
        "n1" -> "n2" ["label"="loaded", "style"="dashed"];
      }

      """#

    #expect(Self.sampleGraph(reversingAttributeOrder: false).serialized() == expected)
  }

  @Test func equalModelsSerializeToSameBytes() {
    let first = Self.sampleGraph(reversingAttributeOrder: false)
    let second = Self.sampleGraph(reversingAttributeOrder: true)

    #expect(first == second)
    #expect(Array(first.serialized().utf8) == Array(second.serialized().utf8))
  }

  @Test func sampleGraphRendersWithItsCluster() throws {
    let svg = try renderSVG(Self.sampleGraph(reversingAttributeOrder: false))

    #expect(svg.nodeCount == 3)
    #expect(svg.edgeCount == 2)
    #expect(svg.clusterCount == 1)
    #expect(svg.titles.contains("cluster_0"))
    #expect(Set(svg.texts).isSuperset(of: ["Idle", "Loading", "Done", "refresh", "loaded"]))
  }

  @Test func undirectedGraphUsesUndirectedEdges() throws {
    var graph = DOTGraph(kind: .undirected)
    let a = graph.addNode(label: "a")
    let b = graph.addNode(label: "b")
    graph.addEdge(from: a, to: b)

    #expect(
      graph.serialized() == "graph \"G\" {\n  \"n0\" [\"label\"=\"a\"];\n"
        + "  \"n1\" [\"label\"=\"b\"];\n  \"n0\" -- \"n1\";\n}\n")
    #expect(try renderSVG(graph).titles == ["G", "n0", "n1", "n0--n1"])
  }

  @Test func nodeDefaultsAreWrittenOncePerRunAndPutBackAfterIt() throws {
    var graph = DOTGraph(nodeAttributes: ["shape": "box"])
    graph.setNodeDefaults(["shape": "plaintext", "fontsize": "7"])
    graph.setNodeDefaults(["shape": "plaintext", "fontcolor": "gray"])
    let first = graph.addNode(label: "a")
    graph.addNode(label: "b", attributes: ["fontcolor": "red"])
    graph.setNodeDefaults(["color": "blue"])
    let last = graph.addNode(label: "c")
    graph.setNodeDefaults(["color": "green"])

    #expect(
      graph.serialized() == #"""
        digraph "G" {
          node ["shape"="box"];
          node ["fontcolor"="gray", "shape"="plaintext"];
          "n0" ["label"="a"];
          "n1" ["fontcolor"="red", "label"="b"];
          node ["color"="blue", "fontcolor"="", "shape"="box"];
          "n2" ["label"="c"];
        }

        """#)
    #expect(graph.nodeDefaults(of: first) == ["shape": "plaintext", "fontcolor": "gray"])
    #expect(graph.nodeDefaults(of: last) == ["color": "blue"])
    let svg = try renderSVG(graph)
    #expect(svg.texts == ["a", "b", "c"])
  }

  @Test func nodesGetSequentialSyntheticNames() {
    var graph = DOTGraph()
    let ids = (0..<3).map { graph.addNode(label: "node \($0)") }

    #expect(ids.map(\.name) == ["n0", "n1", "n2"])
    #expect(graph.nodes.map(\.label) == ["node 0", "node 1", "node 2"])
  }

  @Test func nodeLabelReplacesLabelAttribute() {
    var graph = DOTGraph()
    graph.addNode(label: "shown", attributes: ["label": "ignored"])

    #expect(graph.nodes[0].label == "shown")
    #expect(!graph.serialized().contains("ignored"))
  }

  @Test func edgeLabelsAreReadBack() {
    var graph = DOTGraph()
    let a = graph.addNode(label: "a")
    graph.addEdge(from: a, to: a, label: "self", xlabel: "loop")

    #expect(graph.edges[0].label == "self")
    #expect(graph.edges[0].xlabel == "loop")
  }
}
