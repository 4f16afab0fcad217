import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ReactorTraceCommand {
  /// `reactor-trace serve`: runs `reactor-trace-serve`, built next to `reactor-trace`, with
  /// the same options.
  ///
  /// The server is an executable of its own so that `reactor-trace` links no server library
  /// (on Linux, FlyingFox brings FoundationNetworking and libcurl into the process).
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
        server's address) is one line on standard error. Runs until interrupted; the server \
        is reactor-trace-serve, built next to reactor-trace (swift build --product \
        reactor-trace-serve). Exit codes: 2 an unusable directory, token, address or port, \
        or no reactor-trace-serve.
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

    /// Replaces this process with the server.
    func run() async throws {
      var arguments = ["--host", host, "--port", String(port), "--directory", directory]
      if let token { arguments += ["--token", token] }
      try await ServeRequest(arguments: arguments).exit()
    }
  }
}

/// What `serve` was asked to do: the server's arguments.
struct ServeRequest: CommandRequest {
  var arguments: [String]

  /// Runs `reactor-trace-serve` in place of this process; returns only when it cannot.
  @MainActor
  func run(output: any TextOutput) async throws -> ExitCode {
    let server = Self.serverPath()
    guard access(server, X_OK) == 0 else {
      throw CommandFailure.unusableInput(
        "serve runs reactor-trace-serve, which is not built next to reactor-trace (\(server)): "
          + "swift build --product reactor-trace-serve")
    }
    let argv = ([server] + arguments).map { strdup($0) } + [nil]
    execv(server, argv)
    throw CommandFailure.unusableInput(
      "cannot run \(server): \(String(cString: strerror(errno)))")
  }

  /// `reactor-trace-serve` in the directory of the running executable.
  private static func serverPath() -> String {
    var executable = CommandLine.arguments[0]
    #if os(Linux)
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if count > 0 {
      executable = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    #endif
    guard let slash = executable.lastIndex(of: "/") else { return "./reactor-trace-serve" }
    return String(executable[...slash]) + "reactor-trace-serve"
  }
}
