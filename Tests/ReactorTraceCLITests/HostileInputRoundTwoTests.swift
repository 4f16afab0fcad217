import Foundation
import ReactorDiagrams
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The findings of issue 27, each reproduced against the built binary: the command, its exit
/// code, its one line and the file it wrote.
@Suite("Hostile input, round two, end to end")
struct HostileInputRoundTwoTests {
  /// The lines of the counter trace.
  static func counterLines() throws -> [String] {
    try String(contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8)
      .split(separator: "\n").map(String.init)
  }

  /// Writes `lines` as a trace in `scratch` and returns its path.
  static func write(
    _ lines: [String], named name: String = "edited.trace.jsonl",
    in scratch: borrowing ScratchDirectory
  ) throws -> String {
    let path = scratch.file(name)
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The counter trace with every event at `t` = `Int64.max`, as the format allows.
  static func latestTimes() throws -> [String] {
    try counterLines().enumerated().map { index, line in
      guard index > 0 else { return line }
      return line.replacingOccurrences(
        of: #","t":\d+,"#, with: #","t":9223372036854775807,"#, options: .regularExpression)
    }
  }

  /// Whether `source` is Swift that parses: `swiftc -parse`, which reports syntax errors only.
  static func parses(_ source: String, in scratch: borrowing ScratchDirectory) throws -> String? {
    let path = scratch.file("Generated.swift")
    try source.write(toFile: path, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swiftc", "-parse", path]
    let error = Pipe()
    process.standardError = error
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return process.terminationStatus == 0 ? nil : text
  }

  /// Standard error holds exactly one line.
  static func isOneLine(_ text: String) -> Bool {
    text.hasSuffix("\n") && text.dropLast().split(separator: "\n").count == 1
  }

  // MARK: 1. Times at the edge of the range

  @Test func generateTestWritesTheLatestTraceTimeExactly() throws {
    let scratch = try ScratchDirectory()
    let trace = try Self.write(Self.latestTimes(), in: scratch)
    let result = try runReactorTrace(["generate-test", trace])
    #expect(result.terminationReason == .exit)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains(".nanoseconds(9223372036854775807)"))
    #expect(result.standardOutput.contains("9223372036854.775807 ms"))
  }

  @Test(arguments: ["9223372036855", "1e300", "-1", "\"soon\""])
  func scriptTimesOutOfRangeAreOneLineExit2(time: String) throws {
    let scratch = try ScratchDirectory()
    let script = scratch.file("late.actions.jsonl")
    try """
    {"reactor": "ReactorExamples.CounterReactor", "meta": {"limit": "2"}}
    {"t": \(time), "action": "increase"}

    """.write(toFile: script, atomically: true, encoding: .utf8)
    for arguments in [
      ["record", "--actions", script, "-o", scratch.file("out.trace.jsonl")],
      ["explore", "ReactorExamples.CounterReactor", "--actions", script, "--meta", "limit=2"],
      ["coverage", "Traces/counter.trace.jsonl", "--actions", script],
    ] {
      let result = try runReactorTrace(arguments)
      #expect(result.terminationReason == .exit, "\(arguments[0])")
      #expect(result.exitCode == 2, "\(arguments[0]): \(result.standardError)")
      #expect(Self.isOneLine(result.standardError), "\(arguments[0]): \(result.standardError)")
      #expect(result.standardError.contains("'t' must be a number of milliseconds from 0 to"))
    }
    #expect(!FileManager.default.fileExists(atPath: scratch.file("out.trace.jsonl")))
  }

  @Test func aScriptTimeWithAFractionIsExactToTheNanosecond() throws {
    let scratch = try ScratchDirectory()
    let script = scratch.file("fraction.actions.jsonl")
    try """
    {"reactor": "ReactorExamples.CounterReactor", "meta": {"limit": "2"}}
    {"t": 9007199254740.993, "action": "increase"}

    """.write(toFile: script, atomically: true, encoding: .utf8)
    let output = scratch.file("out.trace.jsonl")
    let result = try runReactorTrace(["record", "--actions", script, "-o", output])
    #expect(result.exitCode == 0, "\(result.standardError)")
    // 9007199254740.993 is read as the nearest Double, 9007199254740.9921875: its whole
    // milliseconds exactly, and the fraction to the nearest nanosecond.
    let trace = try String(contentsOfFile: output, encoding: .utf8)
    #expect(trace.contains(#""t":9007199254740992188,"#))
  }

  // MARK: 2. rerecord near the latest time

  @Test func rerecordPastTheLatestTimeWritesNothingAndKeepsTheTrace() throws {
    let scratch = try ScratchDirectory()
    let trace = try Self.write(Self.latestTimes(), in: scratch)
    let original = try Data(contentsOf: URL(fileURLWithPath: trace))
    let output = scratch.file("new.trace.jsonl")
    let result = try runReactorTrace(["rerecord", trace, "-o", output])
    #expect(result.exitCode == 2, "\(result.standardError)")
    #expect(Self.isOneLine(result.standardError), "\(result.standardError)")
    #expect(result.standardError.contains("runs past the latest time a trace holds"))
    #expect(!FileManager.default.fileExists(atPath: output))

    let inPlace = try runReactorTrace(["rerecord", trace, "--in-place"])
    #expect(inPlace.exitCode == 2)
    #expect(Self.isOneLine(inPlace.standardError), "\(inPlace.standardError)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == original)
    #expect(scratch.contents == ["edited.trace.jsonl"])
  }

  // MARK: 3. Perfetto

  @Test func perfettoWithAnEffectStartedTwiceIsValidJSON() throws {
    let scratch = try ScratchDirectory()
    var lines = try Self.counterLines()
    let start = try #require(lines.firstIndex { $0.contains(#""kind":"effectStart""#) })
    // The same effectStart again, as the next event; later events renumbered.
    var edited = Array(lines[...start])
    edited.append(lines[start].replacingOccurrences(of: #""seq":2,"#, with: #""seq":3,"#))
    for line in lines[(start + 1)...] {
      edited.append(
        line.replacingOccurrences(
          of: #""seq":(\d+),"#, with: "\"seq\":SEQ,", options: .regularExpression))
    }
    var sequence = 3
    for index in (start + 2)..<edited.count {
      sequence += 1
      edited[index] = edited[index].replacingOccurrences(of: "SEQ", with: String(sequence))
    }
    lines = edited
    let trace = try Self.write(lines, in: scratch)
    let output = scratch.file("out.json")
    let result = try runReactorTrace(["render", "perfetto", trace, "-o", output])
    #expect(result.exitCode == 0, "\(result.standardError)")
    let data = try Data(contentsOf: URL(fileURLWithPath: output))
    #expect(!String(decoding: data, as: UTF8.self).contains(",\n,"))
    let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let events = try #require(document["traceEvents"] as? [[String: Any]])
    let slices = events.filter { $0["ph"] as? String == "X" }
    #expect(
      slices.contains {
        ($0["args"] as? [String: Any])?["outcome"] as? String == "started again (seq 3)"
      })
  }

  // MARK: 4. A kind from a newer minor version

  /// The counter trace with a line of a kind this reader does not know after its fifth event,
  /// numbered as a newer recorder would number it.
  static func futureKind() throws -> [String] {
    let lines = try counterLines()
    var edited = Array(lines[...5])
    edited.append(#"{"seq":6,"t":500000000,"kind":"checkpoint","note":"new in 1.9"}"#)
    for line in lines[6...] {
      let sequence = try #require(
        line.firstMatch(of: /"seq":(\d+),/).map { Int($0.1)! })
      edited.append(
        line.replacingOccurrences(of: "\"seq\":\(sequence),", with: "\"seq\":\(sequence + 1),"))
    }
    return edited
  }

  @Test func anUnknownKindIsSkippedWithOneWarningAndNoDivergence() throws {
    let scratch = try ScratchDirectory()
    let trace = try Self.write(Self.futureKind(), in: scratch)
    for arguments in [
      ["replay", trace, "--mode", "structural"],
      ["replay", trace, "--mode", "reduce"],
      ["replay", trace, "--mode", "mutate"],
      ["diff", "Traces/counter.trace.jsonl", trace],
    ] {
      let result = try runReactorTrace(arguments)
      #expect(result.exitCode == 0, "\(arguments): \(result.standardOutput)")
      #expect(Self.isOneLine(result.standardError), "\(arguments): \(result.standardError)")
      #expect(result.standardError.contains("checkpoint"), "\(arguments)")
    }
    // Each of the two readers warns once.
    let itself = try runReactorTrace(["diff", trace, trace])
    #expect(itself.exitCode == 0, "\(itself.standardOutput)")
    #expect(itself.standardError.split(separator: "\n").count == 2)
    let page = scratch.file("page.html")
    let result = try runReactorTrace(["render", "inspector", trace, "-o", page])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(!(try String(contentsOfFile: page, encoding: .utf8)).contains("are missing"))
  }

  // MARK: 5. Terminals

  @Test func aForgedLabelReachesTheTerminalAsEscapes() throws {
    let scratch = try ScratchDirectory()
    let forged = #"\r\u001b[2Kmatch: 20 events, the traces are equal"#
    let lines = try Self.counterLines().map {
      $0.replacingOccurrences(of: #""label":"decrease""#, with: #""label":""# + forged + "\"")
    }
    let trace = try Self.write(lines, in: scratch)
    let diff = try runReactorTrace(["diff", "Traces/counter.trace.jsonl", trace])
    #expect(diff.exitCode == 1)
    #expect(!diff.standardOutput.contains("\r"))
    #expect(!diff.standardOutput.contains("\u{1B}"))
    #expect(diff.standardOutput.contains(#"\u000D\u001B[2Kmatch"#))
    let replay = try runReactorTrace(["replay", trace, "--steps"])
    #expect(!replay.standardOutput.contains("\u{1B}"))
    #expect(!replay.standardOutput.contains("\r"))
  }

  @Test func anErrorQuotingHostileTextIsOneShortLine() throws {
    let scratch = try ScratchDirectory()
    var lines = try Self.counterLines()
    let name = "Evil\nreactor-trace: all good" + String(repeating: "x", count: 1_000_000)
    lines[0] = lines[0].replacingOccurrences(
      of: #""reactor":"ReactorExamples.CounterReactor""#,
      with: #""reactor":"# + "\"" + name.replacingOccurrences(of: "\n", with: #"\n"#) + "\"")
    let trace = try Self.write(lines, in: scratch)
    for arguments in [
      ["generate-test", trace], ["replay", trace, "--mode", "reduce"],
      ["rerecord", trace, "-o", scratch.file("new.trace.jsonl")],
    ] {
      let result = try runReactorTrace(arguments)
      #expect(result.exitCode == 2, "\(arguments[0])")
      #expect(Self.isOneLine(result.standardError), "\(arguments[0])")
      #expect(result.standardError.count < 2_200, "\(arguments[0])")
      #expect(result.standardError.contains("Evil"), "\(arguments[0])")
      #expect(!result.standardError.contains("\nreactor-trace: all good"), "\(arguments[0])")
    }
  }

  // MARK: 6. Generated tests that compile

  @Test(arguments: ["default", "in", "class", "self", "init"])
  func aTraceNamedAfterAKeywordGivesATestThatParses(name: String) throws {
    let scratch = try ScratchDirectory()
    let trace = try Self.write(Self.counterLines(), named: "\(name).trace.jsonl", in: scratch)
    let result = try runReactorTrace(["generate-test", trace])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("@Test func `\(name)`() async throws {"))
    #expect(try Self.parses(result.standardOutput, in: scratch) == nil)
  }

  @Test func aLabelWithQuotesAndLineBreaksGivesATestThatParses() throws {
    let scratch = try ScratchDirectory()
    let label = ##"say \"hi\"#\n\r\u0000\u202e there"##
    let lines = try Self.counterLines().map {
      $0.replacingOccurrences(of: #""label":"decrease""#, with: #""label":""# + label + "\"")
        .replacingOccurrences(
          of: #""label":"setAlert"#, with: ##""label":"set\"#Alert"##)
    }
    let trace = try Self.write(lines, in: scratch)
    let result = try runReactorTrace(["generate-test", trace])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try Self.parses(result.standardOutput, in: scratch) == nil)
  }

  // MARK: 7. Size

  @Test func aTransitionsDOTWithAHugeLabelIsReadByGraphviz() throws {
    let scratch = try ScratchDirectory()
    let huge = String(repeating: "\\\"x", count: 7_000)
    let lines = try Self.counterLines().map {
      $0.replacingOccurrences(of: #""label":"decrease""#, with: #""label":""# + huge + "\"")
    }
    let trace = try Self.write(lines, in: scratch)
    let dot = scratch.file("t.dot")
    let result = try runReactorTrace([
      "render", "transitions", trace, "--key", "value", "-o", dot,
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    let text = try String(contentsOfFile: dot, encoding: .utf8)
    #expect(text.contains(" characters in all)"))
    // The file as the `dot` program reads it: libgvc's parser and layout, from the text alone.
    let svg = try GraphvizRenderer().render(dot: text, engine: .dot, format: .svg)
    #expect(String(decoding: svg, as: UTF8.self).contains("</svg>"))
  }

  @Test func timelineTimesOfHoursFitTheirBoxes() throws {
    let scratch = try ScratchDirectory()
    // 1000 min 10 s after the start, and later.
    let lines = try Self.counterLines().enumerated().map { index, line in
      guard index > 0, let match = line.firstMatch(of: /"t":(\d+),/) else { return line }
      let later = Int(match.1)! + 60_010_000_000_000
      return line.replacingCharacters(in: match.range, with: "\"t\":\(later),")
    }
    let trace = try Self.write(lines, in: scratch)
    let result = try runReactorTrace([
      "render", "timeline", trace, "-o", scratch.file("t.svg"),
    ])
    #expect(result.exitCode == 0)
    #expect(result.standardError.isEmpty, "\(result.standardError)")
  }

  // MARK: 8. Outputs

  @Test func aReplacedOutputKeepsItsMode() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("out.json")
    #expect(FileManager.default.createFile(atPath: output, contents: Data("old".utf8)))
    #expect(chmod(output, 0o600) == 0)
    let result = try runReactorTrace([
      "render", "perfetto", "Traces/counter.trace.jsonl", "-o", output,
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o600)
  }

  /// Each way an output is written: streamed piece by piece (perfetto, inspector), as pages
  /// of a batch (timeline), or whole (rerecord, transitions); the file each replaces.
  static let replacingCommands: [(arguments: [String], replaced: String)] = [
    (["render", "perfetto", "Traces/counter.trace.jsonl", "-o"], "out.json"),
    (["render", "inspector", "Traces/counter.trace.jsonl", "-o"], "out.html"),
    (["render", "timeline", "Traces/counter.trace.jsonl", "--page-size", "10", "-o"], "out.svg"),
    (["rerecord", "Traces/counter.trace.jsonl", "-o"], "out.trace.jsonl"),
    (["render", "transitions", "Traces/counter.trace.jsonl", "-o"], "out.dot"),
  ]

  @Test(arguments: replacingCommands.indices)
  func aReplacedOutputKeepsItsModeAndOwner(command: Int) throws {
    let (arguments, name) = Self.replacingCommands[command]
    let scratch = try ScratchDirectory()
    let output = scratch.file(name)
    // Pages are named after -o: the first page is the file replaced.
    let replaced =
      arguments.contains("--page-size") ? scratch.file("out-1.svg") : output
    #expect(FileManager.default.createFile(atPath: replaced, contents: Data("old".utf8)))
    #expect(chmod(replaced, 0o640) == 0)
    // Another owner can be given only by root; otherwise the owner is ours and stays so.
    let isRoot = geteuid() == 0
    if isRoot { #expect(chown(replaced, 4321, 4322) == 0) }
    let result = try runReactorTrace(arguments + [output])
    #expect(result.exitCode == 0, "\(result.standardError)")
    var info = stat()
    #expect(stat(replaced, &info) == 0)
    #expect(info.st_mode & 0o7777 == 0o640)
    #expect(info.st_uid == (isRoot ? 4321 : geteuid()))
    #expect(info.st_gid == (isRoot ? 4322 : getegid()))
    #expect(try String(contentsOfFile: replaced, encoding: .utf8) != "old")
  }

  @Test(arguments: [SIGINT, SIGTERM])
  func aSignalAfterRerecordsRenameExitsZero(signal: Int32) throws {
    let scratch = try ScratchDirectory()
    // An output path whose report line ("wrote PATH: …") is more than a 4,096-byte pipe
    // holds: its folders' names are control characters, each printed as a 6-byte escape.
    // rerecord prints the line only once its output is in place, and then stays stuck
    // writing it until the signal comes.
    let folder = String(repeating: "\u{01}", count: 250)
    let directory = [scratch.path, folder, folder, folder].joined(separator: "/")
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
    let output = directory + "/out.trace.jsonl"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try reactorTraceBinaryPath())
    process.arguments = ["rerecord", "Traces/counter.trace.jsonl", "-o", output]
    process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
    let report = Pipe()
    let reader = report.fileHandleForReading.fileDescriptor
    #if os(Linux)
    let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, which Glibc's module does not export
    _ = fcntl(reader, setPipeSize, 4096)
    #endif
    process.standardOutput = report
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Wait (at most a minute, only so that a bug cannot hang the suite) for the first bytes
    // of the report: the output is in place by then.
    var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
    try #require(poll(&ready, 1, 60_000) == 1, "nothing was reported")
    #expect(FileManager.default.fileExists(atPath: output))
    kill(process.processIdentifier, signal)
    _ = report.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()

    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
    let written = try String(contentsOfFile: output, encoding: .utf8)
    #expect(written.hasPrefix(#"{"format":"reactor-trace""#))
    #expect(FileManager.default.subpaths(atPath: directory)?.count == 1)
  }

  @Test func rerecordWritesDashToStandardOutput() throws {
    let scratch = try ScratchDirectory()
    let result = try runReactorTrace(["rerecord", "Traces/counter.trace.jsonl", "-o", "-"])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.hasPrefix(#"{"format":"reactor-trace""#))
    #expect(!FileManager.default.fileExists(atPath: repositoryRoot + "/-"))
    _ = scratch
  }

  @Test func rerecordOverItsInputIsOneLineExit2() throws {
    let result = try runReactorTrace([
      "rerecord", "Traces/counter.trace.jsonl", "-o", "./Traces/counter.trace.jsonl",
    ])
    #expect(result.exitCode == 2)
    #expect(Self.isOneLine(result.standardError), "\(result.standardError)")
  }

  @Test func pagesRefuseAFIFOAsOutput() throws {
    let scratch = try ScratchDirectory()
    let fifo = scratch.file("pipe.dot")
    #expect(mkfifo(fifo, 0o600) == 0)
    let result = try runReactorTrace([
      "render", "timeline", "Traces/counter.trace.jsonl", "--page-size", "5", "-o", fifo,
    ])
    #expect(result.exitCode == 2)
    #expect(Self.isOneLine(result.standardError), "\(result.standardError)")
    #expect(scratch.contents == ["pipe.dot"])
  }

  @Test func aTemporaryFileOfAKilledWriteIsRemovedOnTheNextWrite() throws {
    let scratch = try ScratchDirectory()
    // A process that has ended: its id names no running process.
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let stale = scratch.file(".out.json.\(ended.processIdentifier)-1f2e3d4c5b6a7988.tmp")
    let foreign = scratch.file(".notes.txt.tmp")
    #expect(FileManager.default.createFile(atPath: stale, contents: Data(count: 1024)))
    #expect(FileManager.default.createFile(atPath: foreign, contents: Data()))
    let result = try runReactorTrace([
      "render", "perfetto", "Traces/counter.trace.jsonl", "-o", scratch.file("other.json"),
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(scratch.contents == [".notes.txt.tmp", "other.json"])
  }
}
