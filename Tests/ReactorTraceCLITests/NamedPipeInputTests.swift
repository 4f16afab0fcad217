import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A named pipe among the inputs (issue 40): a folder holding one is read without it, and
/// one given by name reads as empty; no command waits for a writer that never comes.
@Suite("Named pipes among the inputs")
struct NamedPipeInputTests {
  /// Runs the binary under `timeout 120`, so that a command that waits ends (status 124)
  /// instead of holding the suite.
  private func run(_ arguments: [String]) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["timeout", "120", try reactorTraceBinaryPath()] + arguments
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

  /// A folder with the counter trace and a named pipe called like a trace.
  private func folderWithAPipe(in scratch: borrowing ScratchDirectory, named name: String) throws
    -> (folder: String, pipe: String)
  {
    let folder = scratch.file(name)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: repositoryRoot + "/Traces/counter.trace.jsonl",
      toPath: folder + "/counter.trace.jsonl")
    let pipe = folder + "/pipe.trace.jsonl"
    #expect(mkfifo(pipe, 0o600) == 0)
    return (folder, pipe)
  }

  @Test func summarizeCompareAndCorpusReplayOfAFolderLeaveItsPipeOut() throws {
    let scratch = try ScratchDirectory()
    let before = try folderWithAPipe(in: scratch, named: "before")
    let after = try folderWithAPipe(in: scratch, named: "after")
    let summary = try run(["summarize", before.folder])
    #expect(summary.exitCode == 0, "\(summary.standardError)")
    #expect(summary.standardOutput.contains("ReactorExamples.CounterReactor"))
    let comparison = try run(["compare", before.folder, after.folder])
    #expect(comparison.exitCode == 0, "\(comparison.standardError)")
    let replay = try run(["replay", before.folder])
    #expect(replay.exitCode == 0, "\(replay.standardError)")
    #expect(replay.standardOutput.contains("1 input: 1 matched"))
  }

  @Test(arguments: [
    ["replay"], ["render", "transitions", "-o", "out.svg"], ["summarize"],
  ])
  func aPipeGivenByNameWithNoWriterIsRefusedAsEmpty(command: [String]) throws {
    let scratch = try ScratchDirectory()
    let (_, pipe) = try folderWithAPipe(in: scratch, named: "traces")
    var arguments = command
    arguments.insert(pipe, at: command.first == "render" ? 2 : 1)
    if let output = arguments.firstIndex(of: "out.svg") {
      arguments[output] = scratch.file("out.svg")
    }
    let result = try run(arguments)
    #expect(result.exitCode == 2, "\(arguments): \(result.standardError)")
    #expect(result.standardError.contains("is empty"), "\(result.standardError)")
    #expect(result.standardError.split(separator: "\n").count == 1)
  }
}
