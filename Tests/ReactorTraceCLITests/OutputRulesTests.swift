import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The README's "Outputs" rules, end to end: what `-o` replaces, writes through or refuses.
@Suite("Output rules, end to end")
struct OutputRulesTests {
  private static let trace = "Traces/counter.trace.jsonl"

  /// A character device like `/dev/null` (`1, 3`) or `/dev/full` (`1, 7`) inside `scratch`,
  /// so that a bug can only replace a copy; the real one where device nodes cannot be made
  /// (not root), where no bug can replace it either.
  private static func device(
    _ name: String, minor: UInt32, in scratch: borrowing ScratchDirectory
  ) -> String {
    let path = scratch.file(name)
    #if os(Linux)
    if mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | minor)) == 0 { return path }
    #endif
    return "/dev/" + name
  }

  private static func fileType(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & S_IFMT
  }

  @Test func aSymbolicLinkKeepsPointingAtItsTargetWhichIsReplaced() throws {
    let scratch = try ScratchDirectory()
    let target = scratch.file("target.dot")
    let link = scratch.file("link.dot")
    try "old".write(toFile: target, atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.dot")

    let result = try runReactorTrace(["render", "transitions", Self.trace, "-o", link])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(Self.fileType(link) == S_IFLNK)
    #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("digraph"))
    #expect(scratch.contents == ["link.dot", "target.dot"])
  }

  @Test func aCharacterDeviceIsWrittenThroughNotReplaced() throws {
    let scratch = try ScratchDirectory()
    let null = Self.device("null", minor: 3, in: scratch)
    let result = try runReactorTrace([
      "render", "transitions", Self.trace, "-o", null, "--format", "dot",
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(Self.fileType(null) == S_IFCHR)
    #expect(scratch.contents.allSatisfy { !$0.hasSuffix(".tmp") })
  }

  @Test func aFullDeviceFailsWithExitCode2AndNoSpace() throws {
    let scratch = try ScratchDirectory()
    let full = Self.device("full", minor: 7, in: scratch)
    let result = try runReactorTrace([
      "render", "transitions", Self.trace, "-o", full, "--format", "dot",
    ])
    #expect(result.exitCode == 2)
    #expect(result.standardError.contains("No space left on device"))
    #expect(result.standardError.split(separator: "\n").count == 1)
    #expect(Self.fileType(full) == S_IFCHR)
  }

  @Test func aLinkToStandardOutputWritesToThePipe() throws {
    // What /dev/stdout is on Linux, made in the scratch directory so that a bug replaces
    // only the link.
    let scratch = try ScratchDirectory()
    let stdout = scratch.file("stdout")
    try FileManager.default.createSymbolicLink(
      atPath: stdout, withDestinationPath: "/proc/self/fd/1")
    let result = try runReactorTrace([
      "render", "transitions", Self.trace, "-o", stdout, "--format", "dot",
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.hasPrefix("digraph"))
    #expect(Self.fileType(stdout) == S_IFLNK)
  }

  @Test func aDashWritesToStandardOutputAlone() throws {
    let result = try runReactorTrace([
      "render", "transitions", Self.trace, "-o", "-", "--format", "dot",
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.hasPrefix("digraph"))
    #expect(!result.standardOutput.contains("wrote"))
    #expect(result.standardError.isEmpty)

    let recorded = try runReactorTrace([
      "record", "--actions", "Traces/counter.actions.jsonl", "-o", "-",
    ])
    #expect(recorded.exitCode == 0, "\(recorded.standardError)")
    #expect(
      recorded.standardOutput
        == (try String(contentsOfFile: repositoryRoot + "/" + Self.trace, encoding: .utf8)))
  }

  @Test func anOutputThatIsAnInputIsRefusedBeforeAnythingIsWritten() throws {
    let scratch = try ScratchDirectory()
    let input = scratch.file("in.trace.jsonl")
    let original = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/" + Self.trace))
    try original.write(to: URL(fileURLWithPath: input))
    let link = scratch.file("same.dot")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)

    for arguments in [
      ["render", "transitions", input, "--format", "dot", "-o", input],
      ["render", "transitions", Self.trace, input, "--format", "dot", "-o", link],
      ["render", "timeline", input, "--format", "dot", "-o", input],
      ["render", "inspector", input, "-o", link],
      ["render", "perfetto", input, "-o", link],
      ["generate-test", input, "-o", link],
      ["coverage", input, "--graph", link],
      ["explore", "counter", "--actions-from", input, "--graph", link],
    ] {
      let result = try runReactorTrace(arguments)
      #expect(result.exitCode == 2, "\(arguments)")
      #expect(result.standardError.contains("is the input"), "\(arguments)")
      #expect(result.standardError.split(separator: "\n").count == 1)
      #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)
    }

    let script = scratch.file("s.jsonl")
    let scriptBytes = try Data(
      contentsOf: URL(fileURLWithPath: repositoryRoot + "/Traces/counter.actions.jsonl"))
    try scriptBytes.write(to: URL(fileURLWithPath: script))
    let result = try runReactorTrace(["record", "--actions", script, "-o", script])
    #expect(result.exitCode == 2)
    #expect(result.standardError.contains("is the input"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: script)) == scriptBytes)
  }

  @Test func pagesAreWrittenAllOrNothing() throws {
    let scratch = try ScratchDirectory()
    // The third page cannot be written: its path is a directory.
    try FileManager.default.createDirectory(
      atPath: scratch.file("page-3.dot"), withIntermediateDirectories: false)
    let result = try runReactorTrace([
      "render", "timeline", Self.trace, "--page-size", "5", "-o", scratch.file("page.dot"),
    ])
    #expect(result.exitCode == 2)
    #expect(result.standardError.split(separator: "\n").count == 1)
    #expect(scratch.contents == ["page-3.dot"])
  }

  @Test(arguments: [(SIGINT, 130), (SIGTERM, 143)] as [(Int32, Int32)])
  func aSignalWhileWritingRemovesTheTemporaryFiles(signal: Int32, code: Int32) throws {
    let scratch = try ScratchDirectory()
    // Page 1 goes to a temporary file; page 2 to a FIFO whose buffer is smaller than the
    // page, so the command is stuck writing it, with page 1's temporary file on disk, until
    // the signal arrives.
    let fifo = scratch.file("page-2.svg")
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = open(fifo, O_RDWR | O_NONBLOCK)
    #expect(reader >= 0)
    defer { close(reader) }
    #if os(Linux)
    let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, which Glibc's module does not export
    _ = fcntl(reader, setPipeSize, 4096)
    #endif

    let process = try startReactorTrace([
      "render", "timeline", Self.trace, "--page-size", "10", "-o", scratch.file("page.svg"),
    ])
    // Wait (at most a minute, only so that a bug cannot hang the suite) for the first bytes.
    var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
    try #require(poll(&ready, 1, 60_000) == 1, "nothing was written to the FIFO")
    kill(process.processIdentifier, signal)
    process.waitUntilExit()

    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == code)
    #expect(scratch.contents == ["page-2.svg"])
  }
}
