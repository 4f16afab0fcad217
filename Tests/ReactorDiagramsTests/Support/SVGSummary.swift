import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// What the tests check in an SVG: that it is well-formed XML, the text of its `<text>` and
/// `<title>` elements, and how many node, edge and cluster groups it has.
struct SVGSummary {
  /// The decoded text of each `<text>` element, with no-break spaces turned into spaces
  /// (Graphviz writes runs of spaces as ` &#160;`).
  var texts: [String] = []
  /// The decoded text of each `<title>` element.
  var titles: [String] = []
  var nodeCount = 0
  var edgeCount = 0
  var clusterCount = 0

  struct MalformedXML: Error, CustomStringConvertible {
    var description: String
  }

  init(_ bytes: [UInt8]) throws {
    let collector = Collector()
    let parser = XMLParser(data: Data(bytes))
    parser.delegate = collector
    guard parser.parse() else {
      throw MalformedXML(
        description: "SVG is not well-formed XML at line \(parser.lineNumber): "
          + "\(parser.parserError.map { "\($0)" } ?? "unknown error")")
    }
    self = collector.summary
  }

  private final class Collector: NSObject, XMLParserDelegate {
    var summary = SVGSummary(empty: ())
    private var element: String?
    private var text = ""

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      switch attributes["class"] {
      case "node": summary.nodeCount += 1
      case "edge": summary.edgeCount += 1
      case "cluster": summary.clusterCount += 1
      default: break
      }
      if elementName == "text" || elementName == "title" {
        element = elementName
        text = ""
      }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if element != nil { text += string }
    }

    func parser(
      _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
      qualifiedName: String?
    ) {
      guard elementName == element else { return }
      let decoded = text.replacingOccurrences(of: "\u{A0}", with: " ")
      if elementName == "text" {
        summary.texts.append(decoded)
      } else {
        summary.titles.append(decoded)
      }
      element = nil
    }
  }

  private init(empty: Void) {}
}
