import Foundation
import ReactorInspector
import ReactorJSON
import Testing

private let tracesDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Traces").path

@Suite("Inspector in live mode")
struct LiveInspectorPageTests {
  @Test func theLivePageIsTheInspectorWithNoEventsAndItsSocketAllowed() throws {
    let live = String(decoding: LiveInspectorPage.html, as: UTF8.self)
    let offline = String(
      decoding: try InspectorPage(tracePath: tracesDirectory + "/counter.trace.jsonl").html,
      as: UTF8.self)
    // The same script, so the same hash: one page, two ways to feed it.
    func script(_ page: String) throws -> Substring {
      let start = try #require(page.range(of: "<script>")).upperBound
      let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
      return page[start..<end]
    }
    #expect(try script(live) == script(offline))
    #expect(live.contains(#""live":true"#))
    #expect(live.contains(#"content="\#(LiveInspectorPage.contentSecurityPolicy)""#))
    #expect(
      LiveInspectorPage.contentSecurityPolicy.hasPrefix("default-src 'none'; connect-src 'self';"))
    #expect(
      !LiveInspectorPage.contentSecurityPolicy.contains("unsafe-inline'; img-src data:; script"))
    #expect(!offline.contains("connect-src"))
  }

  @Test func theDiagramsOfASessionAreOnePerTypeWithEveryReactorsNodes() throws {
    let bytes = try LiveInspectorPage.diagrams(
      tracePath: tracesDirectory + "/taskapp.session.jsonl")
    let data = try JSONValue(parsing: bytes)
    let diagrams = try #require(data["diagrams"]?.arrayValue)
    #expect(diagrams.count == 3)
    #expect(diagrams.allSatisfy { $0["svg"]?.stringValue?.hasPrefix("<svg") == true })
    let reactors = try #require(data["reactors"]?.arrayValue)
    #expect(reactors.count == 9)
    #expect(reactors.allSatisfy { ($0["nodes"]?.arrayValue?.count ?? 0) >= 1 })
  }
}
