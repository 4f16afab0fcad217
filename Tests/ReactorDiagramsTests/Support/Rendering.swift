import Foundation
import ReactorDiagrams

/// The lines Graphviz should show for `text`: split at line breaks, with tabs shown as
/// spaces, other C0 control characters as their Control Pictures symbol and U+FFFE/U+FFFF as
/// U+FFFD.
func displayedLines(_ text: String) -> [String] {
  let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
    .replacingOccurrences(of: "\r", with: "\n")
  return normalized.split(separator: "\n", omittingEmptySubsequences: false).map { line in
    var result = ""
    for scalar in line.unicodeScalars {
      switch scalar.value {
      case 0x09: result += " "
      case 0x00...0x1F: result.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
      case 0xFFFE, 0xFFFF: result += "\u{FFFD}"
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
  "noncharacters \u{FFFE}\u{FFFF}",
  #"]; "n9" -> "n0" [label="pwned"]; "x"#,
  "<b>not html</b> <<double>> <",
  "-> -- ; , = [ ] subgraph node edge digraph",
  "Ünïcödé 日本語 🚀 e\u{301} مرحبا",
  "1abc",
  "  padded  ",
]
