public import ArgumentParser
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
  public struct Serve: AsyncParsableCommand {
    /// The command's help.
    public static let configuration = CommandConfiguration(
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
    public var host = "127.0.0.1"

    /// The port.
    @Option(help: "The port to listen on (0 picks a free one).")
    public var port = 7878

    /// Where streams are kept.
    @Option(help: "The directory the streams are kept in.")
    public var directory = "live-traces"

    /// The token, when not the kept one.
    @Option(help: "The token apps present (default: the one kept in the directory, or a new one).")
    public var token: String?

    /// Creates the command; ArgumentParser fills in the options.
    public init() {}

    /// Serves until interrupted.
    public func run() async throws {
      let request = ServeRequest(
        configuration: LiveServerConfiguration(
          host: host, port: port, directory: directory, token: token))
      let code = await request.execute()
      if code != 0 { throw ExitCode(code) }
    }
  }
}

/// What `serve` was asked to do.
struct ServeRequest: Sendable {
  var configuration: LiveServerConfiguration

  /// Serves until the process is interrupted; returns the exit code when it cannot start.
  func execute() async -> Int32 {
    do {
      let server = try await LiveServer(
        configuration: configuration, log: { CommandFailure.printLog($0) })
      try await server.run { endpoint in
        // On standard output, flushed at once: scripts and tests wait for these lines.
        print("live page: \(endpoint.pageURL)")
        print("apps: host \(endpoint.host), port \(endpoint.port), token \(endpoint.token)")
        print("streams kept in \(configuration.directory)")
        fflush(nil)
      }
      return 0
    } catch {
      CommandFailure.printError("\(error)")
      return 2
    }
  }
}
