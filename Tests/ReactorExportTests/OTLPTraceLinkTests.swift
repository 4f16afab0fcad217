import Foundation
import ReactorExport
import ReactorTracing
import Testing

/// The committed sessions, found from this file's path.
private let tracesDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Traces").path

@Suite("OTLP export: links between reactors")
struct OTLPTraceLinkTests {
  /// The trace and span ids of every span of an export, and every link's.
  private struct Ids {
    var spans: Set<String> = []
    var links: [String] = []
    /// The `reactor.from.effect` attribute of each link that has one, in order.
    var linkedEffects: [Int64] = []

    init(_ export: OTLPTrace) throws {
      for line in export.lines {
        for resourceSpans in line["resourceSpans"]?.arrayValue ?? [] {
          for scopeSpans in resourceSpans["scopeSpans"]?.arrayValue ?? [] {
            for span in scopeSpans["spans"]?.arrayValue ?? [] {
              spans.insert(Self.key(span))
              for link in span["links"]?.arrayValue ?? [] {
                links.append(Self.key(link))
                for attribute in link["attributes"]?.arrayValue ?? []
                where attribute["key"]?.stringValue == "reactor.from.effect" {
                  linkedEffects.append(
                    try #require(attribute["value"]?["intValue"]?.stringValue.flatMap { Int64($0) })
                  )
                }
              }
            }
          }
        }
      }
    }

    static func key(_ span: JSONValue) -> String {
      (span["traceId"]?.stringValue ?? "?") + "/" + (span["spanId"]?.stringValue ?? "?")
    }
  }

  private func export(_ text: String) throws -> OTLPTrace {
    try OTLPTrace(session: SessionReader(bytes: Array(text.utf8), name: "session"))
  }

  @Test(
    "every link of a committed session names a span of the export",
    arguments: ["taskapp.session.jsonl", "todoapp.session.jsonl"])
  func linksOfCommittedSessions(name: String) throws {
    let text = try String(contentsOfFile: tracesDirectory + "/" + name, encoding: .utf8)
    let ids = try Ids(export(text))
    #expect(!ids.links.isEmpty)
    for link in ids.links { #expect(ids.spans.contains(link), "\(name): \(link)") }
  }

  @Test("a cause naming an effect its reactor never started links to the sender's action")
  func linkToAnEffectNeverStarted() throws {
    let text = try String(
      contentsOfFile: tracesDirectory + "/taskapp.session.jsonl", encoding: .utf8)
    let original = #"{"stream":"taskService","from":{"action":2,"effect":1,"reactor":2}}"#
    #expect(text.contains(original))
    let lying = text.replacingOccurrences(
      of: original, with: #"{"stream":"taskService","from":{"action":2,"effect":77,"reactor":2}}"#)
    let before = try Ids(export(text))
    let after = try Ids(export(lying))
    for link in after.links { #expect(after.spans.contains(link), "\(link)") }
    // The same number of links; the lying one still says which effect the file named.
    #expect(after.links.count == before.links.count)
    #expect(after.linkedEffects.contains(77))
    #expect(after.links != before.links)
  }

  @Test("a cause naming an action its sender never handled gives no link")
  func linkToAnActionNeverHandled() throws {
    let text = try String(
      contentsOfFile: tracesDirectory + "/taskapp.session.jsonl", encoding: .utf8)
    let original = #"{"stream":"taskService","from":{"action":2,"effect":1,"reactor":2}}"#
    let lying = text.replacingOccurrences(
      of: original, with: #"{"stream":"taskService","from":{"action":70,"effect":1,"reactor":2}}"#)
    let before = try Ids(export(text))
    let after = try Ids(export(lying))
    for link in after.links { #expect(after.spans.contains(link), "\(link)") }
    #expect(after.links.count == before.links.count - 1)
  }
}
