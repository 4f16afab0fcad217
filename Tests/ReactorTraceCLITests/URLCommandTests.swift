import Foundation
import ReactorTracing
import Testing

@Suite("URLs through record and explore, end to end")
struct URLCommandTests {
  @Test func aRecordedURLIsAStringThatAPathToConditionMatches() throws {
    let scratch = try ScratchDirectory()
    let trace = scratch.file("bookmarks.trace.jsonl")
    let recorded = try runReactorTrace([
      "record", "--actions", "Tests/Fixtures/bookmarks.actions.jsonl", "-o", trace,
    ])
    #expect(recorded.exitCode == 0, "\(recorded.standardError)")
    let text = try String(contentsOfFile: trace, encoding: .utf8)
    #expect(text.contains(#""value":{"open":{"_0":"https://example.com/a"}}"#))
    #expect(!text.contains("relative"))
    let reader = try TraceReader(path: trace)
    var bookmarked: JSONValue?
    while let event = try reader.next() {
      if event.sequence == 10, case .json(let state) = reader.currentState { bookmarked = state }
    }
    #expect(
      bookmarked?["bookmarks"]
        == .array(["https://example.com/a", "https://example.com/search?q=reactor%20trace"]))

    let explored = try runReactorTrace([
      "explore", "ReactorExamples.BookmarkReactor", "--actions-from", trace, "--max-depth", "3",
      "--path-to", "bookmarks.0=https://example.com/a",
    ])
    #expect(explored.exitCode == 0, "\(explored.standardError)")
    #expect(explored.standardOutput.contains(#"{"action":{"open":{"_0":"https://example.com/a"}}"#))
    #expect(explored.standardOutput.contains(#""action":"bookmark""#))
  }
}
