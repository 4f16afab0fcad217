import ReactorJSON
import ReactorLiveRecording
import ReactorTracing

/// The control channel's commands, fuzzed (issue 40): a request body that the server reads
/// (``LiveCommand/parse(requestBody:)``) as the page and `reactor-trace send` post it.
///
/// - A body is taken or refused with ``LiveCommandError``, never a trap.
/// - A command taken, written again with ``LiveCommand/requestBody(stream:)``, reads back as
///   the same command for the same stream.
/// - A refusal is one line with no control character, as the server logs it and `send`
///   prints it.
enum CommandFuzz {
  /// Checks every property that applies to `bytes`.
  static func check(_ bytes: [UInt8]) {
    guard bytes.count <= 1 << 16, let body = try? JSONValue(parsing: bytes) else { return }
    let parsed: (command: LiveCommand, stream: String?)
    do {
      parsed = try LiveCommand.parse(requestBody: body)
    } catch {
      let line = error.description
      guard !line.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
      else { fatalError("a command's refusal holds a control character: \(line)") }
      return
    }
    let written = parsed.command.requestBody(stream: parsed.stream)
    let again: (command: LiveCommand, stream: String?)
    do {
      again = try LiveCommand.parse(requestBody: written)
    } catch {
      fatalError("a command written again is refused: \(error)")
    }
    guard again.command == parsed.command, again.stream == parsed.stream else {
      fatalError("a command written again reads as another")
    }
    // Through bytes, as it goes over the wire.
    var wire: [UInt8] = []
    written.write(to: &wire)
    guard let reread = try? JSONValue(parsing: wire),
      (try? LiveCommand.parse(requestBody: reread))?.command == parsed.command
    else { fatalError("a command sent over the wire reads as another") }
  }
}
