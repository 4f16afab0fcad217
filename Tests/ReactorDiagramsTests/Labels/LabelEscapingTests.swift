import Foundation
import ReactorDiagrams
import Testing

@Suite("Label escaping")
struct LabelEscapingTests {
  @Test(arguments: hostileLabels)
  func hostileLabelRendersAsItsText(label: String) throws {
    var graph = DOTGraph()
    let plain = graph.addNode(label: .text(label), attributes: ["shape": "box"])
    let other = graph.addNode(label: "other")
    graph.addEdge(from: plain, to: other, xlabel: .text(label))

    let svg = try renderSVG(graph)

    #expect(svg.nodeCount == 2)
    #expect(svg.edgeCount == 1)
    #expect(svg.titles == ["G", "n0", "n1", "n0->n1"])
    let lines = displayedLines(label).filter { !$0.isEmpty }
    #expect(svg.texts.sorted() == (lines + lines + ["other"]).sorted())
  }

  @Test(arguments: hostileLabels)
  func hostileLabelInRecordShapeStaysOneField(label: String) throws {
    var graph = DOTGraph()
    graph.addNode(label: .text(label), attributes: ["shape": "record"])

    let svg = try renderSVG(graph)

    #expect(svg.nodeCount == 1)
    #expect(svg.titles == ["G", "n0"])
    let lines = displayedLines(label).map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(
      svg.texts.map { $0.trimmingCharacters(in: .whitespaces) } == lines.filter { !$0.isEmpty })
  }

  @Test(arguments: hostileLabels)
  func hostileHTMLLabelRendersAsItsText(label: String) throws {
    var graph = DOTGraph()
    let node = graph.addNode(label: .html(DOTHTMLLabel(label)))
    let other = graph.addNode(label: "other")
    graph.addEdge(from: node, to: other, label: .html(.bold(DOTHTMLLabel(label))))

    let svg = try renderSVG(graph)

    #expect(svg.nodeCount == 2)
    #expect(svg.edgeCount == 1)
    let lines = displayedLines(label).filter { !$0.isEmpty }
    #expect(svg.texts.sorted() == (lines + lines + ["other"]).sorted())
  }

  @Test(arguments: hostileLabels)
  func hostileSettingsCannotChangeStructure(text: String) throws {
    var graph = DOTGraph(attributes: [text: .string(text), "comment": .string(text)])
    graph.nodeAttributes["tooltip"] = .string(text)
    let first = graph.addNode(label: "first", attributes: ["URL": .string(text)])
    let second = graph.addNode(label: "second", attributes: ["fontname": .string(text)])
    graph.addEdge(from: first, to: second, attributes: [text: .string(text)])

    let plain = try GraphvizRenderer().render(graph, format: .plain)

    let lines = String(decoding: plain, as: UTF8.self).split(separator: "\n")
    let nodes = lines.filter { $0.hasPrefix("node ") }.map { $0.split(separator: " ")[1] }
    let edges = lines.filter { $0.hasPrefix("edge ") }
      .map { $0.split(separator: " ")[1...2].joined(separator: "->") }
    #expect(nodes == ["n0", "n1"])
    #expect(edges == ["n0->n1"])
  }

  @Test func tenThousandCharacterLabelIsCutSayingItsLength() throws {
    // Lines of 200 characters: each is within the line limit, the whole is not.
    let line = String(repeating: #"ab\"&<>{}|"#, count: 20)
    let label = Array(repeating: line, count: 50).joined(separator: "\n")
    #expect(label.count == 10_049)
    var graph = DOTGraph()
    graph.addNode(label: .text(label))

    let svg = try renderSVG(graph)

    // What goes to Graphviz is cut, so that layout costs what a readable label costs.
    #expect(svg.texts.count > 1)
    let last = try #require(svg.texts.last)
    #expect(last.hasSuffix("… (cut: 10049 characters in all)"))
    let kept =
      svg.texts.dropLast().joined(separator: "\n") + "\n"
      + last.dropLast("… (cut: 10049 characters in all)".count)
    #expect(kept.count > 800)
    #expect(label.hasPrefix(kept))
  }

  @Test func aTenThousandCharacterLineIsCutToThreeHundredCharacters() throws {
    let label = String(repeating: #"ab\"&<>{}|"#, count: 1_000)
    var graph = DOTGraph()
    graph.addNode(label: .text(label))

    let svg = try renderSVG(graph)

    // One line of a label is as wide as a page of 300 characters, no wider.
    let shown = try #require(svg.texts.first)
    #expect(svg.texts.count == 1)
    #expect(shown.count == 300)
    #expect(shown.hasSuffix("…"))
    #expect(label.hasPrefix(shown.dropLast()))
  }

  @Test func controlCharactersBecomeControlPictures() {
    var graph = DOTGraph()
    graph.addNode(label: "a\u{01}b\u{1F}c\u{00}")
    graph.addNode(label: .html("x\u{07}y"))

    let text = graph.serialized()

    #expect(text.contains("a\u{2401}b\u{241F}c\u{2400}"))
    #expect(text.contains("x\u{2407}y"))
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }

  @Test func plainLabelEscapesBothLayers() {
    var graph = DOTGraph()
    graph.addNode(label: .text(#"x"y\z & {a}|<b> \N"# + "\nend"))

    #expect(graph.serialized().contains(#""label"="x\"y\\z &amp; \{a\}\|\<b\> \\N\nend""#))
  }

  @Test func htmlLabelIsWellFormedMarkup() throws {
    var graph = DOTGraph()
    let label: DOTHTMLLabel =
      .bold("a<b>") + .lineBreak
      + .font(.italic(#"q"u'o\te & co"#), color: #"red" x="1"#, pointSize: 9, face: "Times")
    graph.addNode(label: .html(label))

    let text = graph.serialized()
    let svg = try renderSVG(graph)

    #expect(
      text.contains(
        #""label"=<<B>a&lt;b&gt;</B><BR/><FONT COLOR="red&quot; x=&quot;1" POINT-SIZE="9.0""#
          + #" FACE="Times"><I>q&quot;u&#39;o\\te &amp; co</I></FONT>>"#))
    #expect(svg.texts == ["a<b>", #"q"u'o\te & co"#])
  }
}
