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

/// What `serve` (or `mcp`) was asked to do: the executable built next to `reactor-trace`
/// that does it, and its arguments.
struct ServeRequest: CommandRequest {
  var arguments: [String]
  /// `reactor-trace-serve`, or `reactor-trace-mcp`.
  var executable = "reactor-trace-serve"

  /// Runs the executable in place of this process; returns only when it cannot.
  @MainActor
  func run(output: any TextOutput) async throws -> ExitCode {
    let server = Self.siblingPath(executable)
    guard access(server, X_OK) == 0 else {
      let command = executable.dropFirst("reactor-trace-".count)
      throw CommandFailure.unusableInput(
        "\(command) runs \(executable), which is not built next to reactor-trace (\(server)): "
          + "swift build --product \(executable)")
    }
    let argv = ([server] + arguments).map { strdup($0) } + [nil]
    execv(server, argv)
    throw CommandFailure.unusableInput(
      "cannot run \(server): \(String(cString: strerror(errno)))")
  }

  /// `name` in the directory of the running executable.
  private static func siblingPath(_ name: String) -> String {
    var executable = CommandLine.arguments[0]
    #if os(Linux)
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if count > 0 {
      executable = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    #endif
    guard let slash = executable.lastIndex(of: "/") else { return "./" + name }
    return String(executable[...slash]) + name
  }
}
