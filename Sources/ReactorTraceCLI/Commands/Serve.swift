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
  /// the arguments it was given, which the server parses: its options and help are declared
  /// once, there.
  ///
  /// The server is an executable of its own so that `reactor-trace` links no server library
  /// (on Linux, FlyingFox brings FoundationNetworking and libcurl into the process).
  struct Serve: AsyncParsableCommand {
    /// The command's help; no help flag of its own, so that `--help` reaches the server.
    static let configuration = CommandConfiguration(
      abstract: "Serve the live page and take live streams from apps.",
      discussion: """
        Runs reactor-trace-serve, built next to reactor-trace (swift build --product \
        reactor-trace-serve), with these arguments; reactor-trace serve --help prints its \
        options (--host, --port, --directory, --token, --token-file). Exit codes: 2 an unusable \
        directory, token, address or port, or no reactor-trace-serve; 64 a usage error.
        """,
      helpNames: []
    )

    /// The server's arguments, as given.
    @Argument(
      parsing: .captureForPassthrough,
      help: "The server's options; reactor-trace serve --help lists them.")
    var arguments: [String] = []

    /// Replaces this process with the server.
    func run() async throws {
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
