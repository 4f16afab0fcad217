import Foundation
import ReactorTracing
import Testing

@testable import ReactorQuery

/// A fuzz of the tools' arguments, bounded and seeded so that CI runs the same calls.
///
/// Wrong types, out-of-range and huge numbers, paths that leave the root, long and odd
/// strings. Every call must come back, as an answer or an error, and the server must go on.
@Suite("a fuzz of the tools' arguments", .serialized)
struct ToolArgumentFuzzTests {
  /// SplitMix64: a small generator with a fixed seed.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static let traces = [
    "Traces/counter.trace.jsonl", "Traces/taskapp.session.jsonl", "Traces/profile.trace.jsonl",
    "Tests/Fixtures/feed.trace.jsonl", "README.md", "Package.swift", "Traces", "Traces/",
    "./Traces/../Traces/counter.trace.jsonl", "../", "../../../../etc/passwd", "/etc/passwd",
    "/proc/self/environ", "Traces/counter.trace.jsonl\u{0}x", "", " ", "~/x",
    String(repeating: "a/", count: 3000), "Traces/nope.jsonl", "%2e%2e/%2e%2e/etc/passwd",
    "Traces/counter.trace.jsonl/..", "\u{202E}Traces", "Traces/*.jsonl",
  ]

  static func value(_ random: inout Generator, depth: Int = 0) -> JSONValue {
    switch Int.random(in: 0..<14, using: &random) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &random))
    case 2: return .int(Int64.random(in: -5...70, using: &random))
    case 3:
      return .int([Int64.max, Int64.min, -1, 0, 1 << 31, 1 << 53].randomElement(using: &random)!)
    case 4: return .uint(UInt64.max)
    case 5:
      return .double([1e300, -1e300, 0.5, -0.0, 3.0, .infinity].randomElement(using: &random)!)
    case 6: return .string(traces.randomElement(using: &random)!)
    case 7:
      return .string(
        [
          "tasks.0.title", "value", "a..b", ".", "", "isLoading", "task.isDone", "**",
          String(repeating: "x.", count: 2000), "cells.99999999999999999999", "list", "edit",
          "TaskCellReactor", "mutation", "effect", "structural", "mutate", "sequence",
          "transitions", "1", "-1", "1e3", "\u{0}",
        ].randomElement(using: &random)!)
    case 8: return .string(String(repeating: "é", count: Int.random(in: 0...5000, using: &random)))
    case 9 where depth < 2:
      return .array(
        (0..<Int.random(in: 0...3, using: &random)).map { _ in value(&random, depth: depth + 1) })
    case 10 where depth < 2:
      return .object(JSONObject([("trace", value(&random, depth: depth + 1))]))
    default: return .int(Int64.random(in: 0...60, using: &random))
    }
  }

  static let keys = [
    "trace", "reactor", "kind", "text", "path", "from", "to", "limit", "seq", "mode", "bogus",
    "", "trace ", "input", "until_state", "until_trap", "before", "after",
    "time_limit", "max_depth", "alpha",
  ]

  /// Tools that run a process each: a few calls, not thousands.
  static let runs: Set<String> = ["replay", "diagram", "shrink", "compare", "coverage"]

  /// A call: a tool (sometimes none of them) and arguments, mostly close to valid.
  static func call(_ random: inout Generator) -> (String, JSONValue?) {
    let tools = QueryTool.all.map(\.name) + ["nope", "", "EVENTS"]
    let tool = tools.randomElement(using: &random)!
    if Int.random(in: 0..<20, using: &random) == 0 { return (tool, value(&random)) }
    var members: [(String, JSONValue)] = []
    if Int.random(in: 0..<5, using: &random) > 0 {
      members.append(
        (
          "trace",
          .string(
            traces[
              Int.random(in: 0..<5, using: &random) == 0
                ? Int.random(in: 0..<traces.count, using: &random)
                : Int.random(in: 0..<2, using: &random)])
        ))
    }
    for _ in 0..<Int.random(in: 0...4, using: &random) {
      members.append((keys.randomElement(using: &random)!, value(&random)))
    }
    var seen = Set<String>()
    return (tool, .object(JSONObject(members.filter { seen.insert($0.0).inserted })))
  }

  @Test func thousandsOfSeededCallsEachComeBackAndTheServiceGoesOn() async throws {
    let queries = try makeQueries(checkpointInterval: 7)
    var random = Generator(state: 45)
    var answered = 0
    var failed = 0
    for _ in 0..<2500 {
      let (tool, arguments) = Self.call(&random)
      // Replays and diagrams run a process each: a few, not thousands.
      if Self.runs.contains(tool), Int.random(in: 0..<10, using: &random) > 0 {
        continue
      }
      switch await queries.call(tool, arguments: arguments) {
      case .success(let answer):
        answered += 1
        #expect(!answer.text.isEmpty)
      case .failure(let error):
        failed += 1
        #expect(!error.description.isEmpty)
        #expect(
          error.description.utf8.count < 20_000,
          "\(tool): an error line of \(error.description.utf8.count) bytes")
      }
    }
    #expect(answered > 20)
    #expect(failed > 100)
    let after = try await queries.answer(
      "state_at", ["trace": "Traces/counter.trace.jsonl", "seq": 19])
    #expect(after.structured["states"]?.arrayValue?[0]["state"]?["value"] == 1)
  }

  @Test func seededCallsOverTheProtocolLeaveTheServerAnswering() throws {
    let client = try MCPClient(arguments: ["--root", repositoryRoot])
    _ = try client.initialize()
    var random = Generator(state: 4545)
    for _ in 0..<300 {
      let (tool, arguments) = Self.call(&random)
      if Self.runs.contains(tool) { continue }
      var parameters = JSONObject()
      parameters["name"] = .string(tool)
      if let arguments { parameters["arguments"] = arguments }
      let response = try #require(try client.request("tools/call", .object(parameters)))
      #expect(response["result"] != nil || response["error"] != nil)
    }
    #expect(try client.request("ping")?["result"] != nil)
    #expect(client.close() == 0)
  }
}
