import Foundation
import Testing

/// What running the built `reactor-trace` binary produced.
struct CommandResult {
  /// Whether the process exited or was killed by a signal (then `exitCode` is the signal).
  var terminationReason: Process.TerminationReason
  var exitCode: Int32
  var standardOutput: String
  var standardError: String
}

/// Runs the `reactor-trace` binary built next to the test bundle.
/// - Parameters:
///   - arguments: Its arguments.
///   - timeout: Seconds after which `timeout` ends it (status 124), so that a command that
///     waits ends instead of holding the suite; `nil` for no limit.
/// - Returns: How it ended and what it wrote.
/// - Throws: When the binary is not found or does not start.
func runReactorTrace(_ arguments: [String], timeout: Int? = nil) throws -> CommandResult {
  let process = Process()
  if let timeout {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["timeout", String(timeout), try reactorTraceBinary().path] + arguments
  } else {
    process.executableURL = try reactorTraceBinary()
    process.arguments = arguments
  }
  process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  try process.run()
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  let errorData = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return CommandResult(
    terminationReason: process.terminationReason, exitCode: process.terminationStatus,
    standardOutput: String(decoding: outputData, as: UTF8.self),
    standardError: String(decoding: errorData, as: UTF8.self))
}

/// Starts the `reactor-trace` binary built next to the test bundle, its output discarded.
func startReactorTrace(_ arguments: [String]) throws -> Process {
  let process = Process()
  process.executableURL = try reactorTraceBinary()
  process.arguments = arguments
  process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try process.run()
  return process
}

/// The built binary's path, for tests that start it their own way.
func reactorTraceBinaryPath() throws -> String {
  try reactorTraceBinary().path
}

/// The built binary: next to the test runner on Linux, a few folders up from it on macOS.
private func reactorTraceBinary() throws -> URL {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for _ in 0..<4 {
    let candidate = directory.appendingPathComponent("reactor-trace")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    directory = directory.deletingLastPathComponent()
  }
  throw CocoaError(.fileNoSuchFile)
}

/// The repository's root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// A new empty directory, removed when the test ends.
struct ScratchDirectory: ~Copyable {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("reactor-trace-cli-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  func file(_ name: String) -> String { path + "/" + name }

  var contents: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

@Suite("reactor-trace render, end to end")
struct RenderCommandTests {
  @Test func transitionsRenderToSVGAndSayWhatWasWritten() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("counter.svg")
    let result = try runReactorTrace([
      "render", "transitions", "Traces/counter.trace.jsonl", "--key", "isLoading", "-o", output,
    ])
    #expect(result.exitCode == 0)
    #expect(result.standardOutput == "wrote \(output): 2 states, 7 transitions from 10 mutations\n")
    #expect(result.standardError.isEmpty)
    let svg = try String(contentsOfFile: output, encoding: .utf8)
    #expect(svg.contains("<svg"))
    #expect(svg.contains("isLoading=true"))
    #expect(svg.contains("setLoading(true)"))
  }

  @Test(arguments: [("dot", "digraph"), ("mmd", "stateDiagram-v2"), ("png", "\u{FFFD}PNG")])
  func theOutputsExtensionChoosesTheFormat(fileExtension: String, signature: String) throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("counter.\(fileExtension)")
    let result = try runReactorTrace([
      "render", "transitions", "Traces/counter.trace.jsonl", "-o", output,
    ])
    #expect(result.exitCode == 0)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
    #expect(String(decoding: bytes.prefix(200), as: UTF8.self).contains(signature))
  }

  @Test func aSessionsTransitionsAsMermaidAreAMachinePerReactorType() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("taskapp.mmd")
    let result = try runReactorTrace([
      "render", "transitions", "Traces/taskapp.session.jsonl", "-o", output,
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.hasPrefix("wrote \(output): TaskAppListReactor: "))
    let mermaid = try String(contentsOfFile: output, encoding: .utf8)
    #expect(
      mermaid.hasPrefix(
        "stateDiagram-v2\n    state \"TaskAppListReactor · 1 reactor merged\" as t1 {\n"))
    let cells = try runReactorTrace([
      "render", "transitions", "Traces/taskapp.session.jsonl", "--reactor-type", "TaskCellReactor",
      "--format", "mermaid", "-o", "-",
    ])
    #expect(cells.exitCode == 0)
    #expect(cells.standardOutput.contains(#"state "TaskCellReactor · 7 reactors merged" as t1 {"#))
    #expect(!cells.standardOutput.contains("as t2 {"))
  }

  @Test func aTimelineSplitsIntoPages() throws {
    let scratch = try ScratchDirectory()
    let result = try runReactorTrace([
      "render", "timeline", "Tests/Fixtures/feed.trace.jsonl", "--page-size", "8",
      "-o", scratch.file("feed.svg"),
    ])
    #expect(result.exitCode == 0)
    #expect(scratch.contents == ["feed-1.svg", "feed-2.svg", "feed-3.svg"])
  }

  @Test func aFormatCanBeNamedByItsExtension() throws {
    let scratch = try ScratchDirectory()
    let render = try runReactorTrace([
      "render", "transitions", "Traces/counter.trace.jsonl", "--format", "mmd",
      "-o", scratch.file("counter.txt"),
    ])
    #expect(render.exitCode == 0, "\(render.standardError)")
    let text = try String(contentsOfFile: scratch.file("counter.txt"), encoding: .utf8)
    #expect(text.hasPrefix("stateDiagram-v2"))
    let explore = try runReactorTrace([
      "explore", "counter", "--actions", "Traces/counter.actions.jsonl", "--max-depth", "2",
      "--graph", scratch.file("explored.txt"), "--format", "MMD",
    ])
    #expect(explore.exitCode == 0, "\(explore.standardError)")
    let explored = try String(contentsOfFile: scratch.file("explored.txt"), encoding: .utf8)
    #expect(explored.hasPrefix("stateDiagram-v2"))
  }

  @Test func anUnknownFormatExitsWith2AndWritesNothing() throws {
    let scratch = try ScratchDirectory()
    let result = try runReactorTrace([
      "render", "transitions", "Traces/counter.trace.jsonl", "--format", "gif",
      "-o", scratch.file("counter.gif"),
    ])
    #expect(result.exitCode == 2)
    #expect(
      result.standardError
        == "reactor-trace: unknown format 'gif'; use dot, svg, png, pdf or mermaid\n")
    #expect(scratch.contents.isEmpty)
  }

  @Test func anUnwritableOutputExitsWith2AndLeavesNoPartialFile() throws {
    let scratch = try ScratchDirectory()
    try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: scratch.path)
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: scratch.path)
    }
    let result = try runReactorTrace([
      "render", "timeline", "Traces/counter.trace.jsonl", "-o", scratch.file("timeline.svg"),
    ])
    if getuid() == 0 {
      // Root may write anywhere; the missing-directory case below still covers the failure.
      #expect(result.exitCode == 0)
    } else {
      #expect(result.exitCode == 2)
      #expect(scratch.contents.isEmpty)
    }
    let missing = try runReactorTrace([
      "render", "timeline", "Traces/counter.trace.jsonl", "-o", scratch.file("no/such/t.svg"),
    ])
    #expect(missing.exitCode == 2)
    #expect(missing.standardError.hasPrefix("reactor-trace: Cannot write '"))
    #expect(missing.standardError.split(separator: "\n").count == 1)
  }

  @Test func inputThatIsNotATraceExitsWith2WithOneLine() throws {
    let scratch = try ScratchDirectory()
    for (input, message) in [
      ("README.md", "reactor-trace: 'README.md' is not a reactor-trace file"),
      ("Traces/missing.jsonl", "reactor-trace: cannot open 'Traces/missing.jsonl'"),
    ] {
      let result = try runReactorTrace([
        "render", "transitions", input, "-o", scratch.file("out.svg"),
      ])
      #expect(result.exitCode == 2)
      #expect(result.standardError.hasPrefix(message))
      #expect(result.standardError.split(separator: "\n").count == 1)
      #expect(!result.standardError.contains("Fatal"))
    }
    #expect(scratch.contents.isEmpty)
  }

  @Test func tracesOfDifferentReactorsDoNotMerge() throws {
    let scratch = try ScratchDirectory()
    let result = try runReactorTrace([
      "render", "transitions", "Traces/counter.trace.jsonl", "Tests/Fixtures/feed.trace.jsonl",
      "-o", scratch.file("both.svg"),
    ])
    #expect(result.exitCode == 2)
    #expect(result.standardError.contains("merges traces of one reactor only"))
  }

  @Test func aUsageErrorExitsWith64() throws {
    let result = try runReactorTrace(["render", "transitions", "-o", "x.svg"])
    #expect(result.exitCode == 64)
    #expect(result.standardError.contains("Give trace files or --summary files"))
  }
}

@Suite("reactor-trace render on every sample trace")
struct SampleTraceRenderingTests {
  static var sampleTraces: [String] {
    let directory = repositoryRoot + "/Traces"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasSuffix(".trace.jsonl") }.sorted().map { "Traces/" + $0 }
  }

  @Test func thereAreSampleTracesToRender() {
    #expect(Self.sampleTraces.count >= 2)
  }

  @Test(arguments: sampleTraces)
  func bothDiagramsRenderFromEverySampleTrace(trace: String) throws {
    let scratch = try ScratchDirectory()
    let transitions = try runReactorTrace([
      "render", "transitions", trace, "-o", scratch.file("transitions.svg"),
    ])
    let timeline = try runReactorTrace([
      "render", "timeline", trace, "-o", scratch.file("timeline.svg"),
    ])
    #expect(transitions.exitCode == 0, "\(transitions.standardError)")
    #expect(timeline.exitCode == 0, "\(timeline.standardError)")
    #expect(scratch.contents == ["timeline.svg", "transitions.svg"])
  }
}
