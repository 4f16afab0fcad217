import Foundation
import Testing

/// A like button whose mutations all come back through the app-wide stream its own effect
/// publishes to: `coverage` and `render transitions` credit them to the action, end to end.
@Suite("Mutations through the reactor's own stream, end to end")
struct OwnStreamCoverageTests {
  /// Records the fixture script into `scratch` and returns the trace's path.
  private func recordLikes(in scratch: borrowing ScratchDirectory) throws -> String {
    let trace = scratch.file("likebutton.trace.jsonl")
    let recorded = try runReactorTrace([
      "record", "--actions", "Tests/Fixtures/likebutton.actions.jsonl", "-o", trace,
    ])
    #expect(recorded.exitCode == 0, "\(recorded.standardError)")
    return trace
  }

  @Test func coverageCountsTheTransitionsThatComeBackThroughTheReactorsOwnStream() throws {
    let scratch = try ScratchDirectory()
    let trace = try recordLikes(in: scratch)
    let text = try String(contentsOfFile: trace, encoding: .utf8)
    #expect(
      text.contains(
        #""cause":{"stream":"PostService.events","publishedBy":{"action":1,"effect":1}}"#))

    let covered = try runReactorTrace(["coverage", trace, "--min", "100"])
    #expect(covered.exitCode == 0, "\(covered.standardError)")
    #expect(covered.standardOutput.contains("transitions: 4 of 4 exercised (100.0%)"))
    #expect(!covered.standardOutput.contains("actions sent while effects ran"))
    #expect(
      covered.standardOutput.contains(
        "the traces also make 1 transition through a stream that no action of theirs "
          + "published (a scripted event, another screen or reactor)"))

    // The same trace as recorders wrote it before they knew the publisher: every mutation
    // is the stream's, and none of the explored transitions counts.
    let before = scratch.file("before.trace.jsonl")
    let stripped = text.replacingOccurrences(
      of: #","publishedBy":\{"action":[0-9]+,"effect":[0-9]+\}"#, with: "",
      options: .regularExpression)
    #expect(!stripped.contains("publishedBy"))
    try stripped.write(toFile: before, atomically: true, encoding: .utf8)
    let uncovered = try runReactorTrace(["coverage", before, "--min", "100"])
    #expect(uncovered.exitCode == 4)
    #expect(uncovered.standardOutput.contains("transitions: 0 of 4 exercised (0.0%)"))
    #expect(uncovered.standardError.contains("transition coverage 0.0% is below --min 100%"))
  }

  @Test func theTransitionGraphLabelsThemWithTheActionAndTheScriptedEventWithTheStream() throws {
    let scratch = try ScratchDirectory()
    let trace = try recordLikes(in: scratch)
    let dot = scratch.file("likes.dot")
    let rendered = try runReactorTrace(["render", "transitions", trace, "-o", dot])
    #expect(rendered.exitCode == 0, "\(rendered.standardError)")
    let text = try String(contentsOfFile: dot, encoding: .utf8)
    #expect(text.contains("setLiked(true) ← like ×2"))
    #expect(text.contains("setLiked(false) ← stream PostService.events ×1"))
    #expect(text.contains("setLiked(false) ← unlike ×1"))
  }
}
