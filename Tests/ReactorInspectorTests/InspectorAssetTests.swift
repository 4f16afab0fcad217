import Foundation
import ReactorInspector
import ReactorTracing
import Testing

@Suite struct InspectorAssetTests {
  /// Set to rewrite `event-slots.js` from ``PageEventSlots``, on purpose.
  private static let isRegenerating =
    ProcessInfo.processInfo.environment["REACTOR_TRACE_REGENERATE_INSPECTOR"] != nil

  @Test func theEventSlotsScriptIsWhatTheGeneratorMakesOfTheTable() throws {
    let path = InspectorAssets.pageFolder + "/event-slots.js"
    let location = InspectorAssets.root + "/" + path
    let text = InspectorAssets.eventSlotsScript()
    if Self.isRegenerating {
      try text.write(toFile: location, atomically: true, encoding: .utf8)
      return
    }
    let committed = try String(contentsOfFile: location, encoding: .utf8)
    #expect(
      committed == text,
      """
      \(path) differs from what InspectorAssets makes of PageEventSlots now; regenerate with \
      REACTOR_TRACE_REGENERATE_INSPECTOR=1 swift test --filter InspectorAssetTests
      """)
  }

  @Test func theEmbeddedPageIsThePageFilesAssembled() throws {
    let files = try InspectorTemplate.assemble(
      html: InspectorAssets.read("inspector.html"), css: InspectorAssets.read("inspector.css"),
      eventSlots: InspectorAssets.read("event-slots.js"),
      script: InspectorAssets.read("inspector.js"))
    #expect(InspectorTemplate.parts.beforeData == files.beforeData)
    #expect(InspectorTemplate.parts.afterData == files.afterData)
    let page = String(
      decoding: InspectorTemplate.parts.beforeData + InspectorTemplate.parts.afterData,
      as: UTF8.self)
    for reference in [#"href="inspector.css""#, #"src="event-slots.js""#, #"src="inspector.js""#] {
      #expect(!page.contains(reference))
    }
    let script =
      "<script>\n" + String(decoding: try InspectorAssets.read("event-slots.js"), as: UTF8.self)
      + String(decoding: try InspectorAssets.read("inspector.js"), as: UTF8.self) + "</script>"
    #expect(page.contains(script))
    #expect(
      page.contains(
        "<style>\n" + String(decoding: try InspectorAssets.read("inspector.css"), as: UTF8.self)
          + "</style>"))
    #expect(page.hasSuffix("</html>\n"))
  }

  @Test(arguments: [
    #"<link rel="stylesheet" href="inspector.css">"#, "script-src 'unsafe-inline'",
    #"<script type="application/json" id="trace-data"></script>"#,
  ])
  func aPageWithoutAReferenceOrWithItTwiceIsNotAssembled(reference: String) throws {
    let html = try InspectorAssets.read("inspector.html")
    let text = String(decoding: html, as: UTF8.self)
    for changed in [text.replacing(reference, with: ""), text + reference] {
      #expect(throws: InspectorTemplate.AssemblyError.self) {
        try InspectorTemplate.assemble(
          html: Array(changed.utf8), css: [], eventSlots: [], script: [])
      }
    }
  }

  @Test func theDigestMatchesTheStandardsTestVectors() {
    func hex(_ text: String) -> String {
      SHA256Digest.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
    #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      SHA256Digest.base64(Array("abc".utf8)) == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
  }

  @Test func thePageRunsOnlyItsOwnScriptByItsHash() throws {
    let html = try InspectorPage(tracePath: InspectorAssets.root + "/Traces/counter.trace.jsonl")
      .html
    let page = String(decoding: html, as: UTF8.self)
    #expect(!page.contains("script-src 'unsafe-inline'"))
    let opening = try #require(page.range(of: "<script>"))
    let closing = try #require(
      page.range(of: "</script>", range: opening.upperBound..<page.endIndex))
    let script = String(page[opening.upperBound..<closing.lowerBound])
    #expect(page.contains("script-src 'sha256-\(SHA256Digest.base64(Array(script.utf8)))'"))
  }

  @Test(arguments: ["counter", "github-search", "profile", "tasklist"])
  func everyEventHasTheMembersItsKindNames(trace: String) throws {
    let path = InspectorAssets.root + "/Traces/\(trace).trace.jsonl"
    let html = String(decoding: try InspectorPage(tracePath: path).html, as: UTF8.self)
    let opening = #"<script type="application/json" id="trace-data">"#
    let start = try #require(html.range(of: opening)).upperBound
    let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
    let data = try JSONValue(parsing: String(html[start..<end]))
    let events = try #require(data.objectValue?["events"]?.arrayValue)
    let kinds = Dictionary(uniqueKeysWithValues: PageEventSlots.kinds.map { ($0.letter, $0) })
    let kindSlot = try #require(PageEventSlots.common.firstIndex(of: "kind"))
    var seen: Set<String> = []
    for event in events {
      let members = try #require(event.arrayValue)
      let letter = try #require(members[kindSlot].stringValue)
      let kind = try #require(kinds[letter], "an event of kind \(letter) the table lacks")
      #expect(members.count == PageEventSlots.common.count + kind.slots.count, "\(members)")
      seen.insert(letter)
    }
    #expect(seen.isSuperset(of: ["a", "m", "z"]))
  }

  @Test func theScriptNamesEverySlotOfTheTable() throws {
    let script = InspectorAssets.eventSlotsScript()
    #expect(script.contains("  kind: 2,"))
    #expect(script.contains("  reactor: 3,"))
    #expect(script.contains("mutation: Object.freeze({ id: 4, label: 5, action: 6"))
    #expect(script.contains("operations: 9, from: 10, shown: 11 })"))
    #expect(
      script.contains(
        "action: Object.freeze({ id: 4, label: 5, stream: 6, from: 7, shown: 8, external: 9 })"))
  }
}
