import Foundation
import ReactorReplay
import ReactorTracing
import Testing

@testable import ReactorQuery

@Suite("the questions agents ask about traces")
struct TraceQueriesTests {
  static let counter = "Traces/counter.trace.jsonl"
  static let session = "Traces/taskapp.session.jsonl"

  @Test func eventsListsEveryEventWithItsCauseAndCountsThoseBeyondTheLimit() async throws {
    let queries = try makeQueries()
    let answer = try await queries.answer("events", ["trace": .string(Self.counter), "limit": 4])
    #expect(answer.structured["matched"] == 20)
    #expect(answer.structured["more"] == true)
    let events = try #require(answer.structured["events"]?.arrayValue)
    #expect(events.map { $0["seq"]?.intValue } == [0, 1, 2, 3])
    #expect(events[1]["label"] == "increase")
    #expect(events[1]["cause"] == "sent by the user")
    #expect(events[3]["cause"] == "sent by effect 1 (increase, seq 2) of action 1")
    #expect(answer.text.contains("seq 3 at 0.000 s, CounterReactor: mutation setLoading(true)"))
  }

  @Test func eventsFiltersByKindTextReactorAndSeqRangeAsTheInspectorDoes() async throws {
    let queries = try makeQueries()
    let inserted = try await queries.answer(
      "events", ["trace": .string(Self.session), "text": "INSERT", "kind": "mutation"])
    #expect(inserted.structured["matched"] == 1)
    #expect(inserted.structured["events"]?.arrayValue?[0]["seq"] == 18)
    let cells = try await queries.answer(
      "events", ["trace": .string(Self.session), "reactor": "TaskCellReactor", "kind": "reactor"])
    #expect(cells.structured["matched"] == 7)
    let window = try await queries.answer(
      "events", ["trace": .string(Self.session), "from": 40, "to": 42, "reactor": 1])
    #expect(window.structured["events"]?.arrayValue?.map { $0["seq"]?.intValue } == [40, 41, 42])
  }

  @Test func eventsWithAPathAreTheMutationsAfterWhichTheValueThereDiffers() async throws {
    let queries = try makeQueries(checkpointInterval: 5)
    let answer = try await queries.answer(
      "events", ["trace": .string(Self.session), "path": "task.isDone"])
    let events = try #require(answer.structured["events"]?.arrayValue)
    #expect(events.map { $0["seq"]?.intValue } == [25])
    #expect(events[0]["before"] == false)
    #expect(events[0]["after"] == true)
  }

  @Test func stateAtMatchesStructuralReplayAfterEveryEventAcrossCheckpoints() async throws {
    for (trace, interval) in [(Self.counter, 3), (Self.session, 5), (Self.session, 4096)] {
      let queries = try makeQueries(redaction: AnswerRedaction.none, checkpointInterval: interval)
      let replay = try StructuralReplay(path: repositoryRoot + "/" + trace)
      while let step = try replay.next() {
        let expected = replay.liveStates(at: step.sequence).states.map {
          JSONValue.object(
            JSONObject([
              ("reactor", .int(Int64($0.introduction.reactor))),
              ("state", Self.json($0.state)),
            ]))
        }
        let answer = try await queries.answer(
          "state_at", ["trace": .string(trace), "seq": .int(Int64(step.sequence))])
        let states = try #require(answer.structured["states"]?.arrayValue).map { state in
          JSONValue.object(
            JSONObject([("reactor", state["reactor"] ?? .null), ("state", state["state"] ?? .null)])
          )
        }
        #expect(states == expected, "\(trace) seq \(step.sequence), checkpoints every \(interval)")
      }
    }
  }

  @Test func historyFollowsAPathAcrossReactorsWithItsCause() async throws {
    let queries = try makeQueries(checkpointInterval: 3)
    let answer = try await queries.answer(
      "history", ["trace": .string(Self.session), "path": "task.title"])
    let changes = try #require(answer.structured["changes"]?.arrayValue)
    #expect(changes.count == 1)
    #expect(changes[0]["seq"] == 35)
    #expect(changes[0]["reactor"] == 4)
    #expect(changes[0]["before"] == "Record a trace")
    #expect(changes[0]["after"] == "Record a session")
    #expect(
      changes[0]["cause"]
        == "element of stream taskService, from reactor 2 (TaskEditReactor 'edit'), effect 2 (save, seq 33) of action 5"
    )
    let counter = try await queries.answer(
      "history", ["trace": .string(Self.counter), "path": "value"])
    #expect(counter.structured["changes"]?.arrayValue?.map { $0["after"]?.intValue } == [1, 2, 1])
  }

  @Test func whyFollowsCausesAcrossReactorsBackToTheUsersTap() async throws {
    let queries = try makeQueries()
    let answer = try await queries.answer("why", ["trace": .string(Self.session), "seq": 35])
    let chain = try #require(answer.structured["chain"]?.arrayValue)
    #expect(chain.map { $0["seq"]?.intValue } == [35, 33, 32])
    #expect(chain.map { $0["reactor"]?.intValue } == [4, 2, 2])
    #expect(chain.map { $0["kind"]?.stringValue } == ["mutation", "effectStart", "action"])
    #expect(answer.structured["origin"]?.stringValue?.hasPrefix("the user") == true)
    let created = try await queries.answer("why", ["trace": .string(Self.session), "seq": 6])
    #expect(created.structured["chain"]?.arrayValue?.map { $0["seq"]?.intValue } == [6, 5, 4, 3])
  }

  @Test func pathsOutsideTheRootAreRefusedSymbolicLinksIncluded() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "reactor-query-root-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/escape.jsonl",
      withDestinationPath: repositoryRoot + "/" + Self.counter)
    try FileManager.default.copyItem(
      atPath: repositoryRoot + "/" + Self.counter, toPath: folder.path + "/inside.jsonl")
    let queries = try makeQueries(root: folder.path)
    for path in [
      "escape.jsonl", "../x", "/etc/passwd", repositoryRoot + "/" + Self.counter, ".", "",
    ] {
      let error = await queries.failure("events", ["trace": JSONValue.string(path)])
      guard case .refusedPath? = error else {
        Issue.record("\(path): \(String(describing: error))")
        continue
      }
    }
    let inside = try await queries.answer("events", ["trace": "inside.jsonl", "limit": 1])
    #expect(inside.structured["matched"] == 20)
  }

  @Test func badArgumentsAreErrorsAndTheServiceGoesOn() async throws {
    let queries = try makeQueries()
    let cases: [(String, JSONValue)] = [
      ("events", ["trace": 3]),
      ("events", ["trace": .string(Self.counter), "limit": 0]),
      ("events", ["trace": .string(Self.counter), "limit": 1.5]),
      ("events", ["trace": .string(Self.counter), "from": 5, "to": 2]),
      ("events", ["trace": .string(Self.counter), "path": "a..b"]),
      ("events", ["trace": .string(Self.counter), "bogus": true]),
      ("state_at", ["trace": .string(Self.counter), "seq": -1]),
      ("state_at", ["trace": .string(Self.counter), "seq": 1000]),
      ("state_at", ["trace": .string(Self.session), "seq": 3, "reactor": 99]),
      ("why", ["trace": .string(Self.counter)]),
      ("diagram", ["trace": .string(Self.session), "kind": "pie"]),
      ("shrink", ["input": .string(Self.counter)]),
      ("compare", ["before": .string(Self.counter), "before_where": "appVersion=1"]),
      ("coverage", ["traces": [], "time_limit": 5]),
      ("nope", [:]),
      ("events", "not an object"),
    ]
    for (tool, arguments) in cases {
      #expect(await queries.failure(tool, arguments) != nil, "\(tool) \(arguments)")
    }
    let after = try await queries.answer("state_at", ["trace": .string(Self.counter), "seq": 19])
    #expect(after.structured["states"]?.arrayValue?[0]["state"]?["value"] == 1)
  }

  @Test func redactionHidesValuesAndLabelsUnlessLifted() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "reactor-query-redaction-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      atPath: repositoryRoot + "/" + Self.session, toPath: folder.path + "/s.jsonl")
    let redacting = try makeQueries(
      redaction: AnswerRedaction(rules: ["*.**.title", "*.setTitle"]), root: folder.path)
    let state = try await redacting.answer("state_at", ["trace": "s.jsonl", "seq": 20])
    #expect(!state.text.contains("Buy milk"))
    #expect(state.structured["states"]?.arrayValue?[2]["state"]?["task"]?["title"] == "<redacted>")
    let events = try await redacting.answer("events", ["trace": "s.jsonl", "text": "milk"])
    #expect(events.structured["matched"] == 0)
    let inserted = try await redacting.answer("events", ["trace": "s.jsonl", "text": "insert"])
    #expect(inserted.structured["events"]?.arrayValue?[0]["label"] == "insert(<redacted>)")
    let history = try await redacting.answer("history", ["trace": "s.jsonl", "path": "task.title"])
    #expect(!history.text.contains("Record a"))
    #expect(await redacting.failure("diagram", ["trace": "s.jsonl", "kind": "sequence"]) != nil)
    // A run's report quotes the runs: withheld, the verdict kept; its diagram refused.
    let compared = try await redacting.answer("compare", ["before": "s.jsonl", "after": "s.jsonl"])
    #expect(compared.structured["verdict"] == "no change")
    #expect(compared.structured["withheld"] != nil)
    #expect(compared.structured["result"]?["changes"] == nil)
    #expect(
      await redacting.failure(
        "compare", ["before": "s.jsonl", "after": "s.jsonl", "diagram": true]) != nil)
    let open = try makeQueries(redaction: AnswerRedaction.none, root: folder.path)
    let plain = try await open.answer("events", ["trace": "s.jsonl", "text": "milk"])
    #expect(plain.structured["matched"] == 3)
    let report = try await open.answer("compare", ["before": "s.jsonl", "after": "s.jsonl"])
    #expect(report.structured["withheld"] == nil)
    #expect(report.structured["result"]?["changes"] == [])
  }

  @Test func resourcesAreEachOpenedTracesHeaderAndSchema() async throws {
    let queries = try makeQueries()
    #expect(await queries.resources.isEmpty)
    _ = try await queries.answer("events", ["trace": .string(Self.session), "limit": 1])
    let resources = await queries.resources
    #expect(
      resources.map(\.uri) == [
        "reactor-trace://header/" + Self.session, "reactor-trace://schema/" + Self.session,
      ])
    let header = try JSONValue(parsing: await queries.read(uri: resources[0].uri).get())
    #expect(header["header"]?["metadata"]?["app"] == "TaskApp")
    #expect(header["reactors"]?.arrayValue?.count == 9)
    let schema = try JSONValue(parsing: await queries.read(uri: resources[1].uri).get())
    #expect(schema["schemas"]?["ReactorExamples.TaskCellReactor"] != nil)
    if case .success = await queries.read(uri: "reactor-trace://header/../../etc/passwd") {
      Issue.record("a resource outside the root was read")
    }
  }

  @Test func promptsSpellOutTheToolCallsThatAnswerThem() throws {
    #expect(QueryPrompt.all.map(\.title) == ["Explain this divergence", "Why is this state wrong"])
    let text = try QueryPrompt.text(
      "why_state_wrong", arguments: ["trace": "a.jsonl", "seq": "12", "path": "tasks"])
    #expect(text.contains("state_at") && text.contains("history") && text.contains("why"))
    #expect(throws: QueryError.self) { try QueryPrompt.text("why_state_wrong", arguments: [:]) }
  }

  private static func json(_ state: TraceHeader.State) -> JSONValue {
    switch state {
    case .json(let json): json
    case .description(let text): .string(text)
    }
  }
}
