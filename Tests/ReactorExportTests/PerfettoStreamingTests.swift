import Foundation
import ReactorExport
import ReactorTracing
import Testing

/// The committed example traces, found from this file's path.
private let tracesDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Traces").path

private let exampleTraces: [String] = {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: tracesDirectory)) ?? []
  return names.filter { $0.hasSuffix(".trace.jsonl") }.sorted()
}()

@Suite("Perfetto export, streamed")
struct PerfettoStreamingTests {
  /// The trace events of the document written with at most `pendingLimit` events waiting,
  /// and how many events the reader had read when each piece was written.
  private func written(
    _ name: String, pendingLimit: Int = PerfettoTrace.pendingLimit
  ) throws -> (events: [JSONValue], readAtEachPiece: [Int], total: Int) {
    let reader = try TraceReader(path: tracesDirectory + "/" + name)
    var bytes: [UInt8] = []
    var readAtEachPiece: [Int] = []
    try PerfettoTrace.write(
      reader: reader,
      to: {
        bytes.append(contentsOf: $0)
        readAtEachPiece.append(reader.eventCount)
      }, pendingLimit: pendingLimit)
    let document = try JSONValue(parsing: bytes)
    return (try #require(document["traceEvents"]?.arrayValue), readAtEachPiece, reader.eventCount)
  }

  /// Each event's JSON text, with a begin and its end joined into the complete slice they
  /// stand for.
  private func normalized(_ events: [JSONValue]) throws -> [String] {
    var begun: [Int64: JSONValue] = [:]
    var texts: [String] = []
    for event in events {
      switch event["ph"]?.stringValue {
      case "B":
        begun[Int64(try #require(event["tid"]?.intValue))] = event
      case "E":
        let track = Int64(try #require(event["tid"]?.intValue))
        let removed = begun.removeValue(forKey: track)
        let begin = try #require(removed, "an end without a begin")
        let start = try #require(begin["ts"]?.intValue)
        let end = try #require(event["ts"]?.intValue)
        let slice: JSONValue = [
          "ph": "X", "cat": "effect", "name": begin["name"] ?? .null, "pid": .int(1),
          "tid": .int(track), "ts": .int(Int64(start)), "dur": .int(Int64(end - start)),
          "args": event["args"] ?? .null,
        ]
        texts.append(String(decoding: slice.serialized, as: UTF8.self))
      default:
        texts.append(String(decoding: event.serialized, as: UTF8.self))
      }
    }
    #expect(begun.isEmpty, "a begin without an end")
    return texts.sorted()
  }

  @Test(arguments: exampleTraces)
  func fewEventsWaitingGiveTheSameSlicesArrowsAndInstants(_ name: String) throws {
    let whole = try written(name)
    let streamed = try written(name, pendingLimit: 4)
    #expect(try normalized(streamed.events) == normalized(whole.events))
  }

  @Test func aLongEffectBecomesABeginAndAnEndWhenTooManyEventsWaitBehindIt() throws {
    let streamed = try written("github-search.trace.jsonl", pendingLimit: 4)
    let phases = streamed.events.compactMap { $0["ph"]?.stringValue }
    #expect(phases.contains("B"))
    #expect(phases.count(where: { $0 == "B" }) == phases.count(where: { $0 == "E" }))
    for end in streamed.events where end["ph"]?.stringValue == "E" {
      #expect(end["args"]?["outcome"]?.stringValue != nil)
    }
  }

  @Test(arguments: exampleTraces)
  func theDocumentGoesOutWhileTheTraceIsStillBeingRead(_ name: String) throws {
    let streamed = try written(name, pendingLimit: 4)
    #expect(streamed.readAtEachPiece.count > 2)
    #expect(streamed.readAtEachPiece.dropFirst().contains { $0 < streamed.total })
  }
}
