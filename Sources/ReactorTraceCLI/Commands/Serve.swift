import ArgumentParser
import ReactorLiveServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ReactorTraceCommand {
  /// `reactor-trace serve`: the live server apps stream to and the live page.
  struct Serve: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Serve the live page and take live streams from apps.",
      discussion: """
        Listens on 127.0.0.1 (loopback only) unless --host says otherwise, prints the live \
        page's URL and the token apps must present (a LiveTraceRecorder's LiveOptions), and \
        keeps each app's stream in --directory as ID.trace.jsonl, a trace file like any \
        other. Started again on the same directory, it resumes the streams and the token \
        kept there, so apps reconnect and go on without losing or repeating an event. Each \
        refused request (wrong token, a page from another origin, a Host that is not this \
        server's address) is one line on standard error. Runs until interrupted. Exit codes: \
        2 an unusable directory, token, address or port.
        """
    )

    /// The address to listen on.
    @Option(help: "The address to listen on; 0.0.0.0 accepts devices on the network.")
    var host = "127.0.0.1"

    /// The port.
    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 7878

    /// Where streams are kept.
    @Option(help: "The directory the streams are kept in.")
    var directory = "live-traces"

    /// The token, when not the kept one.
    @Option(help: "The token apps present (default: the one kept in the directory, or a new one).")
    var token: String?

    /// Serves until interrupted.
    func run() async throws {
      try await ServeRequest(
        configuration: LiveServerConfiguration(
          host: host, port: port, directory: directory, token: token)
      ).exit()
    }
  }
}

/// What `serve` was asked to do.
struct ServeRequest: CommandRequest {
  var configuration: LiveServerConfiguration

  /// Serves until the process is interrupted; fails (exit code 2) when it cannot start.
  @MainActor
  func run(output: any TextOutput) async throws -> ExitCode {
    let server = try await LiveServer(
      configuration: configuration, log: { CommandFailure.printError($0) })
    let directory = configuration.directory
    try await server.run { endpoint in
      output.write("live page: \(endpoint.pageURL)")
      output.write("apps: host \(endpoint.host), port \(endpoint.port), token \(endpoint.token)")
      output.write("streams kept in \(directory)")
      // Scripts and tests wait for these lines: out at once, not when a buffer fills.
      fflush(nil)
    }
    return .success
  }
}
