import ReactorTracing

/// Prints text to standard output through ``TerminalText/line(_:)``: the one way a
/// command's report reaches a terminal.
///
/// It stands in for the standard library's `print` everywhere in this module, so that no
/// label, name or outcome read from a file can reach the terminal raw: a carriage return,
/// escape sequence or other control character in `text` is shown as an escape. Its newlines
/// stay line breaks (a replay step lists its changes on lines of their own). JSON lines pass
/// unchanged in meaning (the escapes are JSON's own). Files and documents written to `-o -`
/// go through ``OutputFiles`` as bytes instead.
/// - Parameters:
///   - text: The lines, without the last newline.
///   - terminator: What ends them.
func print(_ text: String, terminator: String = "\n") {
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
  Swift.print(
    lines.map { TerminalText.line(String($0)) }.joined(separator: "\n"), terminator: terminator)
}
