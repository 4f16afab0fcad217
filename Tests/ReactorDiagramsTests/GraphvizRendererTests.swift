import ReactorDiagrams
import Testing

@Suite("Graphviz renderer")
struct GraphvizRendererTests {
  private static let chain = #"digraph "G" { "a" -> "b" -> "c"; "a" -> "c" }"#

  @Test func svgContainsEveryNodeAndEdge() throws {
    let svg = try SVGSummary(GraphvizRenderer().render(dot: Self.chain, format: .svg))

    #expect(svg.nodeCount == 3)
    #expect(svg.edgeCount == 3)
    #expect(svg.titles.sorted() == ["G", "a", "a->b", "a->c", "b", "b->c", "c"])
  }

  @Test func svgOutputIsReproducible() throws {
    let renderer = GraphvizRenderer()

    #expect(try renderer.render(dot: Self.chain) == renderer.render(dot: Self.chain))
  }

  @Test func pngOutputStartsWithSignature() throws {
    let png = try GraphvizRenderer().render(dot: Self.chain, format: .png)

    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
  }

  @Test func pdfOutputStartsWithHeader() throws {
    let pdf = try GraphvizRenderer().render(dot: Self.chain, format: .pdf)

    #expect(pdf.starts(with: Array("%PDF-".utf8)))
  }

  @Test func canonicalOutputParsesAgain() throws {
    let renderer = GraphvizRenderer()
    let canonical = try renderer.render(dot: Self.chain, format: .canon)

    let text = String(decoding: canonical, as: UTF8.self)
    let svg = try SVGSummary(renderer.render(dot: text, format: .svg))

    #expect(text.hasPrefix("digraph G {"))
    #expect(svg.nodeCount == 3)
    #expect(svg.edgeCount == 3)
  }

  @Test(arguments: [
    LayoutEngine.dot, .neato, .fdp, .sfdp, .circo, .twopi, .osage, .patchwork, .nop, .nop2,
  ])
  func everyLayoutEngineRendersAPinnedGraph(engine: LayoutEngine) throws {
    var graph = DOTGraph()
    let a = graph.addNode(label: "a", attributes: ["pos": "0,0!"])
    let b = graph.addNode(label: "b", attributes: ["pos": "100,50!"])
    graph.addEdge(from: a, to: b, attributes: ["pos": "e,100,50 0,0 30,15 70,35 100,50"])

    let svg = try renderSVG(graph, engine: engine)

    #expect(svg.nodeCount == 2)
    #expect(svg.texts.sorted() == ["a", "b"])
  }

  @Test(arguments: [LayoutEngine.dot, .nop])
  func estimatedTextDrawsTheSameNodesEdgesAndTexts(engine: LayoutEngine) throws {
    var graph = DOTGraph()
    let a = graph.addNode(label: "first\nline", attributes: ["pos": "0,0!"])
    let b = graph.addNode(label: "Ünïcödé 🚀", attributes: ["pos": "200,80!"])
    graph.addEdge(from: a, to: b, xlabel: "edge")

    let shaped = try SVGSummary(GraphvizRenderer().render(graph, engine: engine))
    let estimated = try SVGSummary(
      GraphvizRenderer(textMeasurement: .estimated).render(graph, engine: engine))

    #expect(estimated.titles == shaped.titles)
    #expect(estimated.texts == shaped.texts)
    #expect(estimated.edgeCount == 1)
  }

  @Test func estimatedTextStillDrawsPNGAndPDFWithPango() throws {
    let renderer = GraphvizRenderer(textMeasurement: .estimated)

    let png = try renderer.render(dot: Self.chain, format: .png)
    let pdf = try renderer.render(dot: Self.chain, format: .pdf)
    let svg = try SVGSummary(renderer.render(dot: Self.chain, format: .svg))

    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    #expect(pdf.starts(with: Array("%PDF-".utf8)))
    #expect(svg.nodeCount == 3)
  }

  @Test func unknownEngineErrorCarriesGraphvizMessage() throws {
    let engine = LayoutEngine(rawValue: "no-such-engine")

    let error = try #require(throws: GraphvizError.self) {
      try GraphvizRenderer().render(dot: Self.chain, engine: engine)
    }

    guard case .layoutFailed(engine, let message) = error else {
      Issue.record("unexpected error \(error)")
      return
    }
    #expect(message.contains(#"Layout type: "no-such-engine" not recognized"#))
    #expect(message.contains("dot"))
    #expect(error.description.contains("'no-such-engine'"))
  }

  @Test func unknownFormatErrorCarriesGraphvizMessage() throws {
    let format = OutputFormat(rawValue: "no-such-format")

    let error = try #require(throws: GraphvizError.self) {
      try GraphvizRenderer().render(dot: Self.chain, format: format)
    }

    guard case .renderingFailed(format, let message) = error else {
      Issue.record("unexpected error \(error)")
      return
    }
    #expect(message == "Error: renderer for no-such-format is unavailable")
    #expect(error.description.contains("'no-such-format'"))
  }

  @Test func syntaxErrorDoesNotPoisonLaterRenders() throws {
    let renderer = GraphvizRenderer()
    _ = try renderer.render(dot: "digraph {\n\n\n}\n\n")

    let error = try #require(throws: GraphvizError.self) {
      try renderer.render(dot: "digraph { a -> }")
    }
    let svg = try SVGSummary(renderer.render(dot: Self.chain))

    #expect(error == .invalidDOT(message: "Error: syntax error in line 1 near '}'"))
    #expect(error.description.contains("syntax error in line 1"))
    #expect(svg.nodeCount == 3)
  }

  @Test func warningDoesNotFailTheRender() throws {
    // Graphviz only warns about the badly delimited number and reads `1` and `abc`.
    let svg = try SVGSummary(GraphvizRenderer().render(dot: "digraph { 1abc -> b }"))

    #expect(svg.nodeCount == 3)
  }

  @Test func emptyInputIsInvalid() throws {
    #expect(throws: GraphvizError.invalidDOT(message: "the text contains no graph")) {
      try GraphvizRenderer().render(dot: " \n")
    }
  }

  @Test func textAfterTheGraphDoesNotLeakIntoTheNextRender() throws {
    let renderer = GraphvizRenderer()
    let first = try SVGSummary(renderer.render(dot: #"digraph "1" { "a" } digraph { "x" -> "y" }"#))
    let error = try #require(throws: GraphvizError.self) {
      try renderer.render(dot: #"digraph "2" { "b" } junk"#)
    }

    let next = try SVGSummary(renderer.render(dot: #"digraph "3" { "c" }"#))

    #expect(first.titles.sorted() == ["1", "a"])
    #expect(error == .invalidDOT(message: "Error: syntax error in line 1 near 'junk'"))
    #expect(next.titles.sorted() == ["3", "c"])
  }

  @Test func malformedHTMLLabelIsAnError() throws {
    let renderer = GraphvizRenderer()

    let error = try #require(throws: GraphvizError.self) {
      try renderer.render(dot: #"digraph { "a" [label=<<B>unclosed>] }"#)
    }
    let svg = try SVGSummary(renderer.render(dot: Self.chain))

    #expect(error.message.contains("Error"))
    #expect(svg.nodeCount == 3)
  }

  @Test func eightConcurrentRendersAllSucceed() async throws {
    let formats: [OutputFormat] = [.svg, .png, .svg, .pdf, .svg, .canon, .svg, .png]
    let measurements: [TextMeasurement] = [.shaped, .estimated]

    let results = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
      for (index, format) in formats.enumerated() {
        group.addTask {
          var graph = DOTGraph()
          let task = graph.addNode(label: "task \(index)")
          for step in 0..<5 {
            graph.addEdge(from: task, to: graph.addNode(label: "step \(index).\(step)"))
          }
          let renderer = GraphvizRenderer(textMeasurement: measurements[index / 2 % 2])
          return (index, try renderer.render(graph, format: format))
        }
      }
      var results: [Int: [UInt8]] = [:]
      for try await (index, bytes) in group { results[index] = bytes }
      return results
    }

    #expect(results.count == 8)
    for (index, format) in formats.enumerated() {
      let bytes = try #require(results[index])
      switch format {
      case .svg:
        let svg = try SVGSummary(bytes)
        #expect(svg.nodeCount == 6)
        #expect(svg.edgeCount == 5)
        #expect(svg.texts.contains("task \(index)"))
        #expect(svg.texts.contains("step \(index).4"))
      case .png:
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
      case .pdf:
        #expect(bytes.starts(with: Array("%PDF-".utf8)))
      default:
        #expect(String(decoding: bytes, as: UTF8.self).contains("step \(index).4"))
      }
    }
  }
}

@Suite("Graphviz warnings")
struct GraphvizWarningTests {
  @Test func aPNGTooLargeForCairoComesBackAsOneWarningInOurWords() throws {
    var graph = DOTGraph(nodeAttributes: ["shape": "box", "fixedsize": "true"])
    graph.addNode(label: "wide", attributes: ["width": "500", "height": "0.5"])

    let output = try GraphvizRenderer().renderReportingWarnings(graph, format: .png)

    #expect(output.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    #expect(output.warnings.count == 1)
    #expect(output.warnings.first?.hasPrefix("the picture is larger than a PNG can hold") == true)
  }

  @Test func anOrdinaryRenderHasNoWarnings() throws {
    var graph = DOTGraph()
    graph.addNode(label: "a")

    #expect(try GraphvizRenderer().renderReportingWarnings(graph, format: .png).warnings == [])
    #expect(try GraphvizRenderer().renderReportingWarnings(graph, format: .svg).warnings == [])
  }
}
