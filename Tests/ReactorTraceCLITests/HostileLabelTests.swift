import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Labels recorded in a trace that try to break or spoof the diagrams: character references
/// that Graphviz would decode, markup in tooltips, bidirectional overrides and zero-width
/// characters.
@Suite("Hostile labels in diagrams, end to end")
struct HostileLabelTests {
  /// The label every `increase` action of the counter trace gets.
  static let hostileLabel =
    "inc&#1;&#xFFFE;&#xD800;&lt;b&gt;\u{202E}evil\u{200B}\u{2066}x\u{FEFF}"

  /// The counter trace with its `increase` actions relabelled.
  static func hostileTrace(in scratch: borrowing ScratchDirectory) throws -> String {
    let original = try String(
      contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8)
    let path = scratch.file("hostile.trace.jsonl")
    try original.replacingOccurrences(
      of: #""label":"increase""#, with: #""label":""# + hostileLabel + #"""#
    ).write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// All text and attribute values of an SVG, or `nil` if it is not well-formed XML.
  static func xmlText(of svg: Data) -> String? {
    final class Collector: NSObject, XMLParserDelegate {
      var text = ""
      func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String]
      ) {
        for (_, value) in attributes.sorted(by: { $0.key < $1.key }) { text += value + "\n" }
      }
      func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    }
    let parser = XMLParser(data: svg)
    let collector = Collector()
    parser.delegate = collector
    return parser.parse() ? collector.text : nil
  }

  @Test(arguments: ["transitions", "timeline", "sequence"])
  func hostileLabelsGiveValidSVGShowingTheirTextVisibly(diagram: String) throws {
    let scratch = try ScratchDirectory()
    let trace = try Self.hostileTrace(in: scratch)
    let output = scratch.file("out.svg")
    let result = try runReactorTrace(["render", diagram, trace, "-o", output])
    #expect(result.exitCode == 0, "\(result.standardError)")

    let text = try #require(Self.xmlText(of: Data(contentsOf: URL(fileURLWithPath: output))))
    #expect(text.contains("inc&#1;&#xFFFE;&#xD800;&lt;b&gt;"))
    #expect(text.contains(#"\u{202E}evil\u{200B}\u{2066}x\u{FEFF}"#))
    for hidden in ["\u{1}", "\u{FFFE}", "\u{202E}", "\u{200B}", "\u{2066}", "\u{FEFF}"] {
      #expect(!text.contains(hidden), "\(hidden.unicodeScalars.first!.value)")
    }
  }

  /// The example app's session with the hostile label on its `refresh` actions, as the
  /// list's name, as the name of its service and in the cells' type.
  static func hostileSession(in scratch: borrowing ScratchDirectory) throws -> String {
    let original = try String(
      contentsOfFile: repositoryRoot + "/Traces/taskapp.session.jsonl", encoding: .utf8)
    let quoted = #"""# + hostileLabel + #"""#
    let path = scratch.file("hostile.session.jsonl")
    try original.replacingOccurrences(of: #""label":"refresh""#, with: #""label":"# + quoted)
      .replacingOccurrences(of: #""name":"list""#, with: #""name":"# + quoted)
      .replacingOccurrences(of: #""stream":"taskService""#, with: #""stream":"# + quoted)
      .replacingOccurrences(
        of: #""type":"ReactorExamples.TaskCellReactor""#,
        with: #""type":"ReactorExamples."# + hostileLabel + "\""
      )
      .write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test(arguments: ["sequence", "timeline", "transitions"])
  func hostileNamesInASessionGiveValidSVGShowingTheirTextVisibly(diagram: String) throws {
    let scratch = try ScratchDirectory()
    let session = try Self.hostileSession(in: scratch)
    let output = scratch.file("out.svg")
    let result = try runReactorTrace(["render", diagram, session, "-o", output])
    #expect(result.exitCode == 0, "\(result.standardError)")

    let text = try #require(Self.xmlText(of: Data(contentsOf: URL(fileURLWithPath: output))))
    #expect(text.contains("inc&#1;&#xFFFE;&#xD800;&lt;b&gt;"))
    #expect(text.contains(#"\u{202E}evil\u{200B}\u{2066}x\u{FEFF}"#))
    for hidden in ["\u{1}", "\u{FFFE}", "\u{202E}", "\u{200B}", "\u{2066}", "\u{FEFF}"] {
      #expect(!text.contains(hidden), "\(hidden.unicodeScalars.first!.value)")
    }
    guard diagram == "sequence" else { return }
    let mermaid = scratch.file("out.mmd")
    #expect(try runReactorTrace(["render", diagram, session, "-o", mermaid]).exitCode == 0)
    let lines = try String(contentsOfFile: mermaid, encoding: .utf8)
    for hidden in ["\u{1}", "\u{FFFE}", "\u{202E}", "\u{200B}", "\u{2066}", "\u{FEFF}", "<b>"] {
      #expect(!lines.contains(hidden), "\(hidden)")
    }
  }

  @Test func anEmptyKeyIsAUsageError() throws {
    let result = try runReactorTrace([
      "render", "transitions", "Traces/counter.trace.jsonl", "--key", "", "-o", "/dev/null",
      "--format", "dot",
    ])
    #expect(result.exitCode == 64)
    #expect(result.standardError.contains("--key"))
  }
}
