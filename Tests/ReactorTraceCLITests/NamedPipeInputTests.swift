import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A named pipe among the inputs (issue 40): a folder holding one is read without it, and
/// one given by name reads as empty; no command waits for a writer that never comes (each
/// runs under `timeout 120`, so that one that waits ends, with status 124, instead of holding
/// the suite).
@Suite("Named pipes among the inputs")
struct NamedPipeInputTests {
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
    let summary = try runReactorTrace(["summarize", before.folder], timeout: 120)
    #expect(summary.exitCode == 0, "\(summary.standardError)")
    #expect(summary.standardOutput.contains("ReactorExamples.CounterReactor"))
    let comparison = try runReactorTrace(["compare", before.folder, after.folder], timeout: 120)
    #expect(comparison.exitCode == 0, "\(comparison.standardError)")
    let replay = try runReactorTrace(["replay", before.folder], timeout: 120)
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
    let result = try runReactorTrace(arguments, timeout: 120)
    #expect(result.exitCode == 2, "\(arguments): \(result.standardError)")
    #expect(result.standardError.contains("is empty"), "\(result.standardError)")
    #expect(result.standardError.split(separator: "\n").count == 1)
  }
}
