import ArgumentParser
import Foundation
import ReactorCommandLine
import ReactorQuery
import ReactorTracing

/// `reactor-trace-mcp`, which `reactor-trace mcp` runs: the MCP server on standard input and
/// output that answers an agent's questions about traces and sessions.
///
/// An executable of its own, so that no other product links the MCP SDK; it only adapts
/// ``TraceQueries`` (ReactorQuery) to the protocol.
@main
struct MCPCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reactor-trace mcp",
    abstract:
      "Answer a coding agent's questions about traces over MCP (standard input and output).",
    discussion: """
      An MCP server for agents (Claude Code, Cursor, VS Code): tools events, state_at, why, \
      history, replay and diagram; each opened trace's header and schema as resources; the \
      prompts explain_divergence and why_state_wrong. Traces are opened by paths relative \
      to --root (default: the working directory); a path outside it, through .. or a \
      symbolic link, is refused. Answers redact the values of members named password, \
      token, secret, apiKey, authorization and email, and those --redact adds, unless \
      --no-redact. replay and diagram run reactor-trace (next to this executable, or \
      --reactor-trace), so they know its registered reactors. Standard error carries one \
      line per failure to start; the protocol's messages go on standard output. Exit codes: \
      0 the client closed the connection; 2 an unusable root, pattern or reactor-trace; 64 \
      a usage error.
      """)

  @Option(help: "The directory traces are read from (default: the working directory).")
  var root = "."

  @Option(
    help: "Also redact values at this TraceRedaction pattern (e.g. state.user.name); repeatable.")
  var redact: [String] = []

  @Flag(help: "Answer with every value as recorded: no redaction.")
  var noRedact = false

  @Option(
    help: "The reactor-trace that replays and draws (default: the one next to this executable).")
  var reactorTrace: String?

  /// Parses the arguments and serves; `--help` prints the help, and a usage error is one
  /// line on standard error and exit code 64.
  static func main() async { await mainWithOneLineUsageErrors() }

  /// Serves until the client closes standard input.
  func run() async throws {
    let queries: TraceQueries
    do {
      if noRedact, !redact.isEmpty {
        throw QueryError.invalidArgument(name: "--redact", reason: "cannot go with --no-redact")
      }
      let redaction =
        noRedact
        ? AnswerRedaction.none
        : try AnswerRedaction(
          rules: AnswerRedaction.defaultRules + redact.map { TraceRedaction($0) })
      queries = TraceQueries(
        root: try TraceRoot(path: root), redaction: redaction,
        reactorTrace: reactorTrace ?? Self.siblingPath("reactor-trace"))
    } catch {
      StandardError.print("\(error)")
      throw ExitCode(2)
    }
    try await MCPAdapter(queries: queries).serve()
  }

  /// `name` in the directory of the running executable.
  static func siblingPath(_ name: String) -> String {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    guard let slash = executable.lastIndex(of: "/") else { return "./" + name }
    return String(executable[...slash]) + name
  }
}
