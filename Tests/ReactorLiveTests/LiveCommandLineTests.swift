import Foundation
import Testing

/// What running one of the built executables produced.
private struct Run {
  var status: Int32
  var standardOutput: String
  var standardError: String

  /// Whether standard error holds exactly one line.
  var isOneErrorLine: Bool {
    standardError.hasSuffix("\n") && standardError.dropLast().split(separator: "\n").count == 1
  }
}

/// The folder holding the executables built next to the test runner.
private func productsDirectory() throws -> URL {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for _ in 0..<4 {
    let files = FileManager.default
    if files.isExecutableFile(atPath: directory.appendingPathComponent("reactor-trace").path),
      files.isExecutableFile(atPath: directory.appendingPathComponent("reactor-trace-serve").path)
    {
      return directory
    }
    directory = directory.deletingLastPathComponent()
  }
  throw CocoaError(.fileNoSuchFile)
}

/// Runs `executable` with `arguments` to its end.
private func run(_ executable: URL, _ arguments: [String]) throws -> Run {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  try process.run()
  // Both outputs are short here: a help text, an error line.
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  let errorData = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return Run(
    status: process.terminationStatus,
    standardOutput: String(decoding: outputData, as: UTF8.self),
    standardError: String(decoding: errorData, as: UTF8.self))
}

private func run(_ name: String, _ arguments: [String]) throws -> Run {
  try run(productsDirectory().appendingPathComponent(name), arguments)
}

@Suite("serve and the live example on the command line")
struct LiveCommandLineTests {
  @Test func serveHelpIsTheServersHelpWithEveryOption() throws {
    let result = try run("reactor-trace", ["serve", "--help"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.isEmpty)
    #expect(result.standardOutput.contains("reactor-trace serve"))
    for option in ["--host", "--port", "--directory", "--token"] {
      #expect(result.standardOutput.contains(option), "\(option) missing")
    }
    #expect(result.standardOutput.contains("Exit codes"))
    // The options are declared once, by the server: both give the same help.
    let server = try run("reactor-trace-serve", ["--help"])
    #expect(server.status == 0)
    #expect(server.standardOutput == result.standardOutput)
  }

  @Test func serveUsageErrorIsOneLineAndExitCode64() throws {
    for arguments in [["serve", "--port", "nope"], ["serve", "--no-such-option"]] {
      let result = try run("reactor-trace", arguments)
      #expect(result.status == 64, "\(arguments): \(result.standardError)")
      #expect(result.isOneErrorLine, "\(arguments): \(result.standardError)")
      #expect(result.standardError.hasPrefix("reactor-trace: "))
      #expect(result.standardOutput.isEmpty)
    }
  }

  @Test func anEscapeSequenceInAServeErrorReachesTheTerminalAsText() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let file = scratch.file("not-a-directory")
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    for arguments in [
      ["--port", "0", "--directory", file + "/\u{1B}[2Klive"], ["--no-such-\u{1B}[2Koption"],
    ] {
      let result = try run("reactor-trace-serve", arguments)
      #expect(result.status == (arguments.count == 1 ? 64 : 2), "\(result.standardError)")
      #expect(result.isOneErrorLine, "\(result.standardError)")
      #expect(result.standardError.contains("\\u001B[2K"), "\(result.standardError)")
      #expect(!result.standardError.contains("\u{1B}"))
    }
  }

  @Test func serveGivesItsArgumentsToTheServerWhichRefusesAnUnusableDirectory() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let file = scratch.file("not-a-directory")
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let result = try run("reactor-trace", ["serve", "--port", "0", "--directory", file + "/live"])
    #expect(result.status == 2, "\(result.standardError)")
    #expect(result.isOneErrorLine, "\(result.standardError)")
    #expect(result.standardError.contains(file + "/live"))
  }

  @Test func serveWithoutTheServerBesideItIsOneLineAndExitCode2() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    // A hard link, not a copy: a copy's file stays open for writing while the copy is made,
    // and a process another test starts meanwhile inherits it ("Text file busy" on exec).
    let copy = scratch.file("reactor-trace")
    try FileManager.default.linkItem(
      atPath: productsDirectory().appendingPathComponent("reactor-trace").path, toPath: copy)
    let result = try run(URL(fileURLWithPath: copy), ["serve", "--help"])
    #expect(result.status == 2, "\(result.standardError)")
    #expect(result.isOneErrorLine, "\(result.standardError)")
    #expect(result.standardError.contains("reactor-trace-serve"))
  }

  @Test func liveExampleHelpPrintsItsUsage() throws {
    for flag in ["--help", "-h"] {
      let result = try run("reactor-trace-live-example", [flag])
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.isEmpty)
      #expect(
        result.standardOutput.contains("reactor-trace-live-example --port 7878 --token TOKEN"))
      #expect(result.standardOutput.contains("--session taskapp"))
      #expect(result.standardOutput.contains("Exit codes"))
    }
  }

  @Test func liveExampleBadArgumentsAreOneLineAndExitCode2() throws {
    let result = try run("reactor-trace-live-example", ["--pattern"])
    #expect(result.status == 2)
    #expect(result.isOneErrorLine, "\(result.standardError)")
    #expect(result.standardOutput.isEmpty)
  }
}
