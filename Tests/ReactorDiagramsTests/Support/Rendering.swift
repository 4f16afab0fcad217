import Foundation
import ReactorDiagrams

/// The lines Graphviz should show for `text`: split at line breaks, with tabs shown as
/// spaces, other C0 control characters as their Control Pictures symbol and hidden characters
/// (noncharacters, bidirectional controls, zero-width characters) as `\u{FFFE}`.
func displayedLines(_ text: String) -> [String] {
  let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
    .replacingOccurrences(of: "\r", with: "\n")
  return normalized.split(separator: "\n", omittingEmptySubsequences: false).map { line in
    var result = ""
    for scalar in line.unicodeScalars {
      switch scalar.value {
      case 0x09: result += " "
      case 0x00...0x1F: result.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
      case 0x7F...0x9F, 0xAD, 0x061C, 0x180E, 0x200B...0x200F, 0x2028...0x202E,
        0x2060...0x2064, 0x2066...0x206F, 0xFEFF, 0xFDD0...0xFDEF:
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      case let value where value & 0xFFFE == 0xFFFE:
        result += "\\u{" + String(value, radix: 16, uppercase: true) + "}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

/// Renders `graph` to SVG and summarizes it.
func renderSVG(_ graph: DOTGraph, engine: LayoutEngine = .dot) throws -> SVGSummary {
  try SVGSummary(GraphvizRenderer().render(graph, engine: engine, format: .svg))
}

/// Labels that break naive DOT writers: quoting, backslashes, escape sequences, entities,
/// record specials, control characters, line breaks, injection attempts and Unicode.
let hostileLabels: [String] = [
  #"say "hi" and \"bye\""#,
  #"C:\new\table\"#,
  #"\"#,
  #"\\"#,
  "first line\nsecond line",
  "windows\r\nline\rold mac",
  "{record|<port> field}",
  "a & b &amp; &lt;tag&gt; &#65; &nbsp;",
  #"\N \G \E \T \H \L \n \l \r \\N"#,
  "bell\u{07} escape\u{1B}[0m nul\u{00} unit\u{1F} tab\tend",
  "noncharacters \u{FFFE}\u{FFFF}" + String(Unicode.Scalar(0xFDD0)!) + "\u{10FFFF}",
  "spoof \u{202E}txt.exe\u{200B} \u{2066}iso\u{2069} \u{FEFF}bom \u{85}nel \u{7F}del \u{AD}",
  "references &#1; &#xFFFE; &#xD800; &#x202E; &lt;b&gt;",
  #"]; "n9" -> "n0" [label="pwned"]; "x"#,
  "<b>not html</b> <<double>> <",
  "-> -- ; , = [ ] subgraph node edge digraph",
  "Ünïcödé 日本語 🚀 e\u{301} مرحبا",
  "1abc",
  "  padded  ",
]
