import ArgumentParser

extension ReactorTraceCommand {
  /// `reactor-trace mcp`: runs `reactor-trace-mcp`, built next to `reactor-trace`, with the
  /// arguments it was given, as `serve` runs `reactor-trace-serve`: its options and help are
  /// declared once, there.
  ///
  /// The server is an executable of its own so that `reactor-trace` links no MCP library.
  struct Mcp: AsyncParsableCommand {
    /// The command's help; no help flag of its own, so that `--help` reaches the server.
    static let configuration = CommandConfiguration(
      commandName: "mcp",
      abstract: "Answer a coding agent's questions about traces over MCP.",
      discussion: """
        Runs reactor-trace-mcp, built next to reactor-trace (swift build --product \
        reactor-trace-mcp), with these arguments: an MCP server on standard input and output \
        with the tools events, state_at, why, history, replay and diagram. reactor-trace mcp \
        --help prints its options (--root, --redact, --no-redact, --reactor-trace). Exit \
        codes: 2 an unusable root or pattern, or no reactor-trace-mcp; 64 a usage error.
        """,
      helpNames: []
    )

    /// The server's arguments, as given.
    @Argument(
      parsing: .captureForPassthrough,
      help: "The server's options; reactor-trace mcp --help lists them.")
    var arguments: [String] = []

    /// Replaces this process with the server.
    func run() async throws {
      try await ServeRequest(arguments: arguments, executable: "reactor-trace-mcp").exit()
    }
  }
}
