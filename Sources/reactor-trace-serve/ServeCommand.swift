import ArgumentParser
import Foundation
import ReactorCommandLine
import ReactorLiveServer

/// `reactor-trace-serve`, which `reactor-trace serve` runs: the live server apps stream to
/// and the live page.
///
/// An executable of its own, so that `reactor-trace` (every replay and render) links no
/// server library: FlyingFox brings FoundationNetworking and libcurl on Linux.
@main
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reactor-trace serve",
    abstract: "Serve the live page and take live streams from apps.",
    discussion: """
      Listens on 127.0.0.1 (loopback only) unless --host says otherwise, prints the live \
      page's URL and the token apps must present (a LiveTraceRecorder's LiveOptions), and \
      keeps each app's stream in --directory as ID.trace.jsonl, a trace file like any \
      other. Started again on the same directory, it resumes the streams and the token kept \
      there, so apps reconnect and go on without losing or repeating an event. Each refused \
      request (wrong token, a page from another origin, a Host that is not this server's \
      address, a request over a limit) is one line on standard error. The token comes from \
      --token-file, else the environment's REACTOR_TRACE_SERVE_TOKEN, else --token (which \
      other users can read in ps), else the directory's token file (created 0600; used only \
      when it is this user's and readable by no one else). Runs until interrupted; \
      reactor-trace serve \
      runs this executable, reactor-trace-serve, with its arguments. Exit codes: 2 an \
      unusable directory, token, token file, address or port, or an address in use; 64 a \
      usage error (one line on standard \
      error).
      """)

  @Option(help: "The address to listen on; 0.0.0.0 accepts devices on the network.")
  var host = "127.0.0.1"

  @Option(help: "The port to listen on (0 picks a free one).")
  var port = 7878

  @Option(help: "The directory the streams are kept in.")
  var directory = "live-traces"

  @Option(
    help: """
      The token apps present (default: the one kept in the directory, or a new one). Other \
      users see it in ps: prefer --token-file or REACTOR_TRACE_SERVE_TOKEN.
      """)
  var token: String?

  @Option(
    help: "A file whose first line is the token; it must be yours and readable by you only.")
  var tokenFile: String?

  /// Parses the arguments and serves; `--help` prints the help, and a usage error is one
  /// line on standard error and exit code 64.
  static func main() async { await mainWithOneLineUsageErrors() }

  /// Serves until interrupted; an unusable directory, token, address or port ends it with
  /// one line on standard error and exit code 2.
  func run() async throws {
    do {
      var token = self.token
      if let environment = ProcessInfo.processInfo.environment["REACTOR_TRACE_SERVE_TOKEN"],
        !environment.isEmpty
      {
        token = environment
      }
      if let tokenFile { token = try LiveServer.token(fromFile: tokenFile) }
      let server = try await LiveServer(
        configuration: LiveServerConfiguration(
          host: host, port: port, directory: directory, token: token),
        log: { StandardError.print($0) })
      let directory = self.directory
      try await server.run { endpoint in
        print("live page: \(endpoint.pageURL)")
        print("apps: host \(endpoint.host), port \(endpoint.port), token \(endpoint.token)")
        print("streams kept in \(directory)")
        // Scripts and tests wait for these lines: out at once, not when a buffer fills.
        fflush(nil)
      }
    } catch {
      StandardError.print("\(error)")
      throw ExitCode(2)
    }
  }
}
