import Foundation
import Testing

/// Issue 40's sessions that lie, end to end: no command calls an edited reference a match,
/// mutate replay with recorded effects answers one line instead of trapping, generated tests
/// copy names only as comments that stay comments, and an exit-2 run prints one line.
@Suite("Sessions that lie, end to end")
struct LyingSessionCommandTests {
  /// The lines of a committed file, each edited by `edit` (given the line's index, 0 for the
  /// header; `nil` drops the line).
  static func lines(_ path: String, _ edit: (Int, String) -> String? = { $1 }) throws -> [String] {
    try String(contentsOfFile: repositoryRoot + "/" + path, encoding: .utf8)
      .split(separator: "\n").enumerated().compactMap { edit($0, String($1)) }
  }

  /// Writes `lines` as `name` in `scratch`.
  static func write(
    _ lines: [String], _ name: String, in scratch: borrowing ScratchDirectory
  ) throws -> String {
    let path = scratch.file(name)
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func aPublisherThatNeverActedIsFoundByEveryReplayAndByDiff() throws {
    let scratch = try ScratchDirectory()
    let original = "Tests/Fixtures/likebutton.trace.jsonl"
    let lie = try Self.write(
      Self.lines(original) { index, line in
        index == 3
          ? line.replacingOccurrences(
            of: #""publishedBy":{"action":1"#, with: #""publishedBy":{"action":999"#) : line
      }, "lie.trace.jsonl", in: scratch)
    for mode in ["structural", "reduce", "mutate"] {
      let result = try runReactorTrace(["replay", lie, "--mode", mode])
      #expect(result.exitCode == 1, "\(mode): \(result.standardOutput)\(result.standardError)")
      #expect(
        result.standardOutput
          == "divergence (structural replay): line 4: event 3 is published by action 999, "
          + "effect 1, whose action 999 did not come before it\n")
    }
    let diff = try runReactorTrace(["diff", original, lie])
    #expect(diff.exitCode == 1, "\(diff.standardOutput)")
    #expect(diff.standardOutput.contains("causes differ"))
  }

  /// The task app's session with the effect start on line `line` left out and the `seq`
  /// numbers (and `during`s) after it closed up, as a window from its start or not.
  static func withoutEffectStart(
    at line: Int, window: Bool, in scratch: borrowing ScratchDirectory
  ) throws -> String {
    var lines = try Self.lines("Traces/taskapp.session.jsonl")
    if window {
      lines[0] = lines[0].replacingOccurrences(
        of: #""version":"2.0""#,
        with: #""version":"2.1","window":{"firstSequence":1,"droppedEvents":0}"#)
    }
    lines.remove(at: line)
    for index in line..<lines.count {
      for member in ["seq", "during"] {
        guard
          let range = lines[index].range(
            of: "\"\(member)\":(\\d+)", options: .regularExpression)
        else { continue }
        let number = Int(lines[index][range].split(separator: ":")[1])!
        if member == "during", number < line { continue }
        lines[index].replaceSubrange(range, with: "\"\(member)\":\(number - 1)")
      }
    }
    return try Self.write(lines, "lie-\(line)-\(window).session.jsonl", in: scratch)
  }

  @Test(arguments: [false, true])
  func aSessionMissingAnEffectStartIsADivergenceNotATrap(window: Bool) throws {
    let scratch = try ScratchDirectory()
    let lie = try Self.withoutEffectStart(at: 4, window: window, in: scratch)
    let result = try runReactorTrace(["replay", lie, "--mode", "mutate", "--effects", "recorded"])
    #expect(result.exitCode == 1, "\(result.standardError)")
    #expect(result.standardError == "")
    #expect(
      result.standardOutput
        == "divergence (structural replay): line 5: event 4 of reactor 1 is a mutation from "
        + "effect 1, which did not start before it\n")
  }

  @Test func aReactorNameOrTypeCannotEndTheCommentItIsCopiedInto() throws {
    let scratch = try ScratchDirectory()
    let lie = try Self.write(
      Self.lines("Traces/taskapp.session.jsonl") { index, line in
        switch index {
        case 1:
          line.replacingOccurrences(
            of: #""name":"list""#, with: #""name":"list\nfatalError(\"name\") */ /*""#)
        case 2:
          line.replacingOccurrences(
            of: #""name":"edit""#, with: #""name":"edit\r\u2028fatalError(\"edit\")""#)
        default: line
        }
      }, "names.session.jsonl", in: scratch)
    let result = try runReactorTrace(["generate-test", lie])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try HostileInputRoundTwoTests.parses(result.standardOutput, in: scratch) == nil)
    let statements = result.standardOutput.split(separator: "\n").filter {
      $0.trimmingCharacters(in: .whitespaces).hasPrefix("fatalError")
    }
    #expect(statements.isEmpty, "\(statements)")
    // In string literals they are text; in comments they are split.
    let comments = result.standardOutput.split(separator: "\n").filter {
      $0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
    }
    #expect(comments.contains { $0.contains("list fatalError") })
    #expect(!comments.contains { $0.contains("*/") || $0.contains("/*") }, "\(comments)")
  }

  @Test func anUnusableRequestOnATraceWithWarningsPrintsOneLine() throws {
    let scratch = try ScratchDirectory()
    // No end line: a warning, which the exit-2 answer no longer comes after.
    let cut = try Self.write(
      Self.lines("Traces/counter.trace.jsonl").dropLast().map { $0 }, "cut.trace.jsonl",
      in: scratch)
    let result = try runReactorTrace(["replay", cut, "--from", "900", "--to", "901"])
    #expect(result.exitCode == 2)
    #expect(HostileInputRoundTwoTests.isOneLine(result.standardError), "\(result.standardError)")
    #expect(result.standardError.hasPrefix("reactor-trace: no event of the trace is in"))
    // A run that answers still warns.
    let replayed = try runReactorTrace(["replay", cut])
    #expect(replayed.exitCode == 0)
    #expect(replayed.standardError.hasPrefix("reactor-trace: warning: "))
  }
}
