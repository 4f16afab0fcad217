import ReactorTracing

/// Prints one line to standard output through ``TerminalText/line(_:)``: the one way a
/// command's report reaches a terminal.
///
/// It stands in for the standard library's `print` everywhere in this module, so that no
/// label, name or outcome read from a file can reach the terminal raw: a newline, carriage
/// return or escape sequence in `text` is shown as an escape. JSON lines pass unchanged in
/// meaning (the escapes are JSON's own). Files and documents written to `-o -` go through
/// ``OutputFiles`` as bytes instead.
/// - Parameters:
///   - text: One line, without its newline.
///   - terminator: What ends it.
func print(_ text: String, terminator: String = "\n") {
  Swift.print(TerminalText.line(text), terminator: terminator)
}
