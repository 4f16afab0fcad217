import Foundation
import ReactorDiagrams
import ReactorTracing
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Arbitrary Unicode labels, from a seeded generator, through every diagram kind and format:
/// each SVG must be well-formed XML and show no hidden character.
@Suite("Generated labels in every diagram")
struct GeneratedLabelTests {
  /// SplitMix64: the same labels on every run and every platform.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// Pieces that labels are made of: syntax of DOT, HTML, records and Mermaid, character
  /// references, controls, hidden and invisible characters, and ordinary text.
  static let pieces: [String] = [
    "&", "&#1;", "&#xFFFE;", "&#xD800;", "&#x202E;", "&lt;", "&amp;", "&#65;", "<", ">", "\"",
    "'", "\\", "\\N", "\\n", "{", "}", "|", "[", "]", ";", ":", "#", "%", "`", "->", "\n",
    "\r\n", "\t", "\u{0}", "\u{1}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9F}", "\u{AD}", "\u{61C}",
    "\u{200B}", "\u{200D}", "\u{200E}", "\u{2028}", "\u{202A}", "\u{202E}", "\u{2066}",
    "\u{2069}", "\u{FEFF}", String(Unicode.Scalar(0xFDD0)!), "\u{FFFE}", "\u{FFFF}", "\u{1FFFE}",
    "\u{10FFFF}",
    "\u{FFFD}", "e\u{301}", "🚀", "日本", "مرحبا", "a", "Z", "0", " ",
  ]

  /// `count` labels of up to 12 pieces, a random scalar now and then.
  static func labels(count: Int, seed: UInt64) -> [String] {
    var generator = SeededGenerator(state: seed)
    return (0..<count).map { _ in
      var label = ""
      for _ in 0..<Int.random(in: 0...12, using: &generator) {
        if Int.random(in: 0..<4, using: &generator) == 0 {
          let value = UInt32.random(in: 0...0x10FFFF, using: &generator)
          label.unicodeScalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        } else {
          label += pieces.randomElement(using: &generator)!
        }
      }
      return label
    }
  }

  static let generated = labels(count: 40, seed: 18)

  /// The counter trace with its actions' and mutations' labels set to `label`.
  static func trace(labelled label: String) throws -> [UInt8] {
    let original = try String(contentsOfFile: sampleTracePath("counter"), encoding: .utf8)
    let quoted = JSONValue.string(label).serializedString
    let edited = original.replacing(#/"label":"(?:[^"\\]|\\.)*"/#) { _ in #""label":"# + quoted }
    return Array(edited.utf8)
  }

  /// The example app's session with every action and mutation labelled `label`, and the list
  /// named so.
  static func session(labelled label: String) throws -> [UInt8] {
    let original = try String(contentsOfFile: sampleSessionPath(), encoding: .utf8)
    let quoted = JSONValue.string(label).serializedString
    let edited = original.replacing(#/"label":"(?:[^"\\]|\\.)*"/#) { _ in #""label":"# + quoted }
      .replacingOccurrences(of: #""name":"list""#, with: #""name":"# + quoted)
    return Array(edited.utf8)
  }

  /// Characters that must never reach an SVG's text as they are.
  static func hasHiddenCharacter(_ text: String) -> Bool {
    text.unicodeScalars.contains { scalar in
      switch scalar.value {
      case 0x09, 0x0A, 0x0D: false
      case 0x00...0x1F, 0x7F...0x9F, 0xAD, 0x061C, 0x200B...0x200F, 0x2028...0x202E,
        0x2060...0x2064, 0x2066...0x206F, 0xFEFF, 0xFDD0...0xFDEF:
        true
      default: scalar.value & 0xFFFE == 0xFFFE
      }
    }
  }

  /// Parses `svg` as XML and checks its text and attribute values.
  static func expectValidSVG(_ svg: [UInt8], _ context: String) {
    final class Collector: NSObject, XMLParserDelegate {
      var text = ""
      func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String]
      ) {
        text += attributes.values.joined()
      }
      func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    }
    let parser = XMLParser(data: Data(svg))
    let collector = Collector()
    parser.delegate = collector
    #expect(parser.parse(), "not XML: \(context): \(parser.parserError.map { "\($0)" } ?? "")")
    #expect(!hasHiddenCharacter(collector.text), "hidden character: \(context)")
  }

  @Test(arguments: generated.indices)
  func aGeneratedLabelGivesValidOutputInEveryDiagramAndFormat(index: Int) throws {
    let label = Self.generated[index]
    let context = "label \(index): \(label.unicodeScalars.map { String($0.value, radix: 16) })"

    // The DOT primitives: names, plain, record and HTML-like labels, tooltips, titles.
    var graph = DOTGraph(attributes: ["label": .label(.text(label)), "tooltip": .string(label)])
    let plain = graph.addNode(
      label: .text(label), attributes: ["tooltip": .string(label), "shape": "box"])
    let record = graph.addNode(label: .text(label), attributes: ["shape": "record"])
    let html = graph.addNode(label: .html(.bold(DOTHTMLLabel(label)) + .lineBreak))
    graph.addEdge(from: plain, to: record, xlabel: .text(label))
    graph.addEdge(from: record, to: html, label: .html(DOTHTMLLabel(label)))
    Self.expectValidSVG(try GraphvizRenderer().render(graph, format: .svg), context)

    // Both diagram kinds, from a trace whose labels are the generated one.
    let bytes = try Self.trace(labelled: label)
    var transitions = TransitionGraph()
    try transitions.add(TraceReader(bytes: bytes))
    let timeline = try TimelineDiagram(reader: SessionReader(bytes: bytes))
    let sequence = try SequenceDiagram(reader: SessionReader(bytes: bytes))
    let diagrams: [(String, DOTGraph, LayoutEngine)] = [
      ("transitions", try transitions.dotGraph(), .dot),
      ("timeline", timeline.dotGraph(), .nop),
      ("sequence", sequence.dotGraph(), .nop),
      (
        "session transitions",
        try SessionTransitions(session: SessionTrace(bytes: Self.session(labelled: label)))
          .pinnedGraph(), .nop2
      ),
    ]
    for mermaid in [try transitions.mermaid(), sequence.mermaid()] {
      #expect(
        !Self.hasHiddenCharacter(mermaid.replacingOccurrences(of: "\n", with: "")), "\(context)")
      // One line per statement: no label starts a line of its own.
      #expect(
        mermaid.split(separator: "\n").allSatisfy {
          $0.hasPrefix("    ") || $0.hasPrefix("stateDiagram") || $0.hasPrefix("sequenceDiagram")
        }, "\(context)")
    }
    for (kind, diagram, engine) in diagrams {
      let dot = diagram.serialized()
      #expect(!Self.hasHiddenCharacter(dot), "\(kind) DOT: \(context)")
      let renderer = GraphvizRenderer(
        textMeasurement: kind.hasSuffix("transitions") ? .shaped : .estimated)
      Self.expectValidSVG(
        try renderer.render(diagram, engine: engine, format: .svg), "\(kind) \(context)")
      // Raster and PDF output for a few labels only: they cost ten times an SVG.
      if index < 3 {
        #expect(
          try renderer.render(diagram, engine: engine, format: .png).starts(with: [0x89, 0x50]))
        #expect(
          try renderer.render(diagram, engine: engine, format: .pdf).starts(
            with: Array("%PDF".utf8)))
      }
    }
  }
}
