import Foundation
import Testing

/// `render timeline` refuses a page larger than the documented limit before building any
/// DOT, and says how to page it.
@Suite("Timeline size limit, end to end")
struct TimelineSizeLimitTests {
  /// A trace of `count` actions (no state changes), with the counter's header.
  static func trace(actions count: Int, in scratch: borrowing ScratchDirectory) throws -> String {
    let header = try String(
      contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8
    ).prefix { $0 != "\n" }
    var text = header + "\n"
    for sequence in 1...count {
      text +=
        #"{"seq":\#(sequence),"t":\#(sequence),"kind":"action","id":\#(sequence),"#
        + #""label":"increase","value":{"increase":{}},"source":"sent"}"# + "\n"
    }
    text +=
      #"{"seq":\#(count + 1),"t":\#(count),"kind":"end","observed":\#(count),"dropped":0}"#
      + "\n"
    let path = scratch.file("large.trace.jsonl")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func aTimelineBeyondTheLimitIsRefusedWithAHintAtPaging() throws {
    let scratch = try ScratchDirectory()
    let trace = try Self.trace(actions: 20_001, in: scratch)

    let whole = try runReactorTrace(["render", "timeline", trace, "-o", scratch.file("t.svg")])
    #expect(whole.exitCode == 2)
    #expect(
      whole.standardError
        == "reactor-trace: the timeline has 20001 events, more than the 20000 one page may "
        + "hold; split it with --page-size 20000 or draw a window with --from/--to\n")

    let tooLargePages = try runReactorTrace([
      "render", "timeline", trace, "--page-size", "30000", "-o", scratch.file("t.svg"),
    ])
    #expect(tooLargePages.exitCode == 2)
    #expect(tooLargePages.standardError.contains("--page-size 20000 or less"))
    #expect(scratch.contents == ["large.trace.jsonl"])

    let paged = try runReactorTrace([
      "render", "timeline", trace, "--page-size", "20000", "-o", scratch.file("t.dot"),
    ])
    #expect(paged.exitCode == 0, "\(paged.standardError)")
    #expect(scratch.contents == ["large.trace.jsonl", "t-1.dot", "t-2.dot"])

    let window = try runReactorTrace([
      "render", "timeline", trace, "--from", "5", "--to", "10", "-o", scratch.file("w.dot"),
    ])
    #expect(window.exitCode == 0, "\(window.standardError)")
  }
}
