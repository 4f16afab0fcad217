import Foundation
import ReactorTracing

/// A label made to break diagrams: character references Graphviz would decode, markup,
/// bidirectional overrides and zero-width characters.
let hostileLabel = "inc&#1;&#xFFFE;&#xD800;&lt;b&gt;\u{202E}evil\u{200B}\u{2066}x\u{FEFF}"

/// The example app's session with `hostileLabel` as its `refresh` actions' label, as the
/// list's name, as its service's name and in the cells' type.
func hostileSessionBytes() throws -> [UInt8] {
  let quoted = JSONValue.string(hostileLabel).serializedString
  let text = try String(contentsOfFile: sampleSessionPath(), encoding: .utf8)
    .replacingOccurrences(of: #""label":"refresh""#, with: #""label":"# + quoted)
    .replacingOccurrences(of: #""name":"list""#, with: #""name":"# + quoted)
    .replacingOccurrences(of: #""stream":"taskService""#, with: #""stream":"# + quoted)
    .replacingOccurrences(
      of: #""type":"ReactorExamples.TaskCellReactor""#,
      with: #""type":"ReactorExamples."# + hostileLabel + "\"")
  return Array(text.utf8)
}
