import Foundation
import Testing

/// Numbers at the edges of `Int` in every numeric member of every event kind: each command
/// either reads them or refuses the line, and never traps.
@Suite("Boundary numbers in traces, end to end")
struct BoundaryNumberTests {
  /// One numeric member of one line of the sample trace.
  struct Member: CustomTestStringConvertible, Sendable {
    /// The line's kind (`header` for the first line).
    var kind: String
    /// The member, with `.` between nested keys: `cause.effect`.
    var key: String

    var testDescription: String { "\(kind).\(key)" }
  }

  /// The sample: the counter trace, with a rolling window in its header and a gap before its
  /// end line, so that their numbers are swept too.
  static func sampleLines() throws -> [String] {
    var lines = try String(
      contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8
    ).split(separator: "\n").map(String.init)
    lines[0] = String(lines[0].dropLast()) + #","window":{"firstSequence":1,"droppedEvents":0}}"#
    let end = lines.removeLast()
    lines.append(#"{"seq":19,"t":1500000000,"kind":"gap","dropped":1}"#)
    lines.append(end.replacingOccurrences(of: #""seq":19"#, with: #""seq":20"#))
    return lines
  }

  static let members: [Member] =
    [
      Member(kind: "header", key: "window.firstSequence"),
      Member(kind: "header", key: "window.droppedEvents"),
    ]
    + ["seq", "t", "id"].map { Member(kind: "action", key: $0) }
    + ["seq", "t", "effect", "action"].map { Member(kind: "effectStart", key: $0) }
    + ["seq", "t", "effect"].map { Member(kind: "effectEnd", key: $0) }
    + ["seq", "t", "id", "cause.action", "cause.effect"].map { Member(kind: "mutation", key: $0) }
    + ["seq", "t", "dropped"].map { Member(kind: "gap", key: $0) }
    + ["seq", "t", "observed", "dropped"].map { Member(kind: "end", key: $0) }

  static let values: [Int] = [.min, .max, .max - 1, -1]

  /// The sample with `member` of the first line of its kind set to `value`.
  static func trace(setting member: Member, to value: Int) throws -> String {
    var lines = try sampleLines()
    let index = try #require(
      member.kind == "header"
        ? 0 : lines.firstIndex { $0.contains(#""kind":"\#(member.kind)""#) })
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(lines[index].utf8)) as? [String: Any])
    let keys = member.key.split(separator: ".").map(String.init)
    if keys.count == 1 {
      object[keys[0]] = value
    } else {
      var inner = try #require(object[keys[0]] as? [String: Any])
      inner[keys[1]] = value
      object[keys[0]] = inner
    }
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    lines[index] = String(decoding: data, as: UTF8.self)
    return lines.joined(separator: "\n") + "\n"
  }

  /// The commands added since the sweep was first written, which read traces too: run with
  /// the two extremes only, to keep the sweep's time small.
  static func laterCommands(
    _ path: String, in scratch: borrowing ScratchDirectory, value: Int
  ) -> [[String]] {
    guard value == .max || value == .min else { return [] }
    return [
      ["generate-test", path],
      ["rerecord", path, "-o", scratch.file("r.trace.jsonl")],
      ["render", "perfetto", path, "-o", scratch.file("p.json")],
      ["render", "inspector", path, "-o", scratch.file("i.html")],
      ["render", "otlp", path, "-o", scratch.file("o.jsonl")],
      ["render", "sequence", path, "-o", scratch.file("q.dot")],
      ["summarize", path, "-o", scratch.file("s.jsonl")],
      // Few states: exploring the counter without a limit runs to 10,000 of them.
      ["coverage", path, "--actions-from", path, "--max-states", "20"],
      ["replay", path, "--mode", "reduce"],
    ]
  }

  @Test(arguments: members)
  func everyCommandEndsWithExit0Or1Or2AndAtMostOneLine(member: Member) throws {
    let scratch = try ScratchDirectory()
    for value in Self.values {
      let path = scratch.file("edited.trace.jsonl")
      try Self.trace(setting: member, to: value).write(
        toFile: path, atomically: true, encoding: .utf8)
      for arguments in [
        ["replay", path],
        ["replay", path, "--mode", "mutate", "--steps", "--json"],
        ["diff", "Traces/counter.trace.jsonl", path],
        ["render", "transitions", path, "-o", scratch.file("t.dot")],
        ["render", "timeline", path, "-o", scratch.file("l.dot")],
      ] + Self.laterCommands(path, in: scratch, value: value) {
        let result = try runReactorTrace(arguments)
        let context = "\(member.testDescription)=\(value): \(arguments.prefix(2))"
        #expect(result.terminationReason == .exit, "\(context)")
        #expect([0, 1, 2].contains(result.exitCode), "\(context): \(result.standardError)")
        if result.exitCode == 2 {
          #expect(result.standardError.hasPrefix("reactor-trace: "), "\(context)")
          // One line for the failure, after any the reader warned of (a gap in the sample).
          let failures = result.standardError.split(separator: "\n")
            .filter { !$0.hasPrefix("reactor-trace: warning: ") }
          #expect(failures.count == 1, "\(context): \(result.standardError)")
        }
      }
    }
  }

  @Test func aSequenceNumberTooLargeIsAMalformedLineNamedWithExitCode2() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.file("huge.trace.jsonl")
    try Self.trace(setting: Member(kind: "end", key: "seq"), to: .max).write(
      toFile: path, atomically: true, encoding: .utf8)
    for mode in ["structural", "reduce", "mutate"] {
      let result = try runReactorTrace(["replay", path, "--mode", mode])
      #expect(result.exitCode == 2)
      #expect(
        result.standardError
          == "reactor-trace: \(path):21: malformed event: 'seq' must be at most "
          + "9007199254740991, found 9223372036854775807\n")
    }
  }
}
