import Clocks
import Foundation
import ReactorCore
import ReactorExamples
import ReactorTestSupport
import ReactorTracing
import Testing

extension TracingTests {
  /// Every trace line, committed or freshly recorded, satisfies `docs/trace-format.schema.json`:
  /// the first line `#/$defs/header`, every other non-blank line `#/$defs/event`.
  @MainActor
  @Suite struct SchemaValidation {
    let validator: JSONSchemaValidator

    init() throws {
      let schema = try contents(of: Self.repositoryRoot + "/docs/trace-format.schema.json")
      validator = JSONSchemaValidator(schema: try JSONValue(parsing: schema))
    }

    @Test func everyTraceFileInTheRepositoryValidates() async throws {
      let files = Self.traceFiles()
      var checked = 0
      var expected = 0
      for file in files {
        let bytes = try contents(of: file)
        let lines = Self.nonBlankLineCount(bytes)
        #expect(lines > 0, "\(file) is empty")
        expected += lines
        checked += validateTrace(bytes, named: String(file.dropFirst(Self.repositoryRoot.count)))
      }
      if files.isEmpty {
        // No committed traces yet: check freshly recorded ones, so this never passes on nothing.
        for recorded in try await Self.recordTraces() {
          expected += recorded.trace.events.count + 1
          checked += validateTrace(recorded.trace.serialized, named: recorded.name)
        }
      }
      #expect(checked == expected)
      #expect(checked > 0)
    }

    @Test func tracesRecordedInProcessValidate() async throws {
      let traces = try await Self.recordTraces()
      var features: Set<String> = []
      for recorded in traces {
        let bytes = recorded.trace.serialized
        let checked = validateTrace(bytes, named: recorded.name)
        #expect(checked == recorded.trace.events.count + 1, "\(recorded.name)")
        features.formUnion(try Self.features(of: bytes))
      }
      // The recordings reach every branch of the schema a Swift reactor's trace can take.
      let expected: Set<String> = [
        "header.initialState", "header.initialStateDescription", "header.clock.origin",
        "header.redactions", "header.window", "shape.primitive", "shape.struct", "shape.enum",
        "shape.optional", "shape.array", "shape.set", "shape.dictionary", "shape.wrapper",
        "shape.tuple", "shape.ref", "shape.opaque", "shape.partial", "action.sent",
        "action.stream", "effectStart", "effectEnd.finished", "effectEnd.cancelled",
        "effectEnd.failed", "mutation.snapshot", "mutation.diff", "mutation.stateDescription",
        "cause.action", "cause.effect", "cause.stream", "cause.publishedBy", "diff.v",
        "diff.remove", "diff.append",
        "diff.truncate", "gap", "end",
      ]
      #expect(
        expected.subtracting(features).isEmpty,
        "not exercised: \(expected.subtracting(features).sorted())")
    }

    @Test func sessionLinesValidateAndEachReachesItsBranchOfTheSchema() throws {
      let bytes = SessionFixture.session().serialized
      let session = try SessionTrace(bytes: bytes)
      #expect(validateTrace(bytes, named: "session") == session.events.count + 1)
      let features = try Self.features(of: bytes)
      for feature in ["reactor", "release", "end", "action.sent", "cause.stream", "cause.from"] {
        #expect(features.contains(feature), "\(feature)")
      }
      // Session lines are not lines of a trace of one reactor, and the other way round.
      let lines = bytes.split(separator: UInt8(ascii: "\n"))
      #expect(
        !validator.validate(try JSONValue(parsing: lines[0]), against: "#/$defs/header").isEmpty)
      let header = try JSONValue(parsing: Array(try recordedCounterHeader()))
      #expect(!validator.validate(header, against: "#/$defs/sessionHeader").isEmpty)
      let withoutReactor = validAction
      #expect(!validator.validate(withoutReactor, against: "#/$defs/sessionEvent").isEmpty)
      #expect(
        validator.validate(validAction.setting("reactor", 2), against: "#/$defs/sessionEvent")
          .isEmpty)
      let badOrigin = validAction.setting("reactor", 2).setting("from", ["action": 1])
      #expect(
        validator.validate(badOrigin, against: "#/$defs/sessionEvent").flatMap(\.flattened)
          .contains { $0.description == #"/from: required: "reactor" is missing"# })
    }

    /// The header line of a freshly recorded counter trace.
    private func recordedCounterHeader() throws -> [UInt8] {
      let reactor = CounterReactor(clock: ContinuousClock(), limit: 1)
      let recorder = try InMemoryTraceRecorder(recording: reactor)
      recorder.stop()
      return recorder.trace.header.serializedLine
    }

    @Test(arguments: rejectedLines)
    func theValidatorRejectsAMalformedLineForTheRightReason(_ example: RejectedLine) {
      let errors = validator.validate(example.line, against: example.definition)
      #expect(!errors.isEmpty, "\(example.line.serializedString) validated")
      let found = errors.flatMap(\.flattened).contains {
        $0.description == example.error && $0.schemaLocation == example.schemaLocation
      }
      #expect(
        found,
        """
        expected \(example.error) [\(example.schemaLocation)], got:
        \(errors.map(\.explanation).joined(separator: "\n"))
        """)
    }

    @Test(arguments: acceptedLines)
    func theValidatorAcceptsValidLinesWithUnknownKindsAndMembers(_ example: AcceptedLine) {
      let errors = validator.validate(example.line, against: example.definition)
      #expect(errors.isEmpty, "\(errors.map(\.explanation).joined(separator: "\n"))")
    }

    @Test func theSchemaFileUsesOnlyKeywordsTheValidatorSupports() throws {
      #expect(
        validator.schemaProblems.isEmpty,
        "\(validator.schemaProblems.map(\.description).joined(separator: "\n"))")
      var used: Set<String> = []
      Self.collectKeywords(in: validator.schema, into: &used)
      #expect(used.subtracting(JSONSchemaValidator.supportedKeywords).isEmpty)
      #expect(used.isSuperset(of: ["$ref", "oneOf", "pattern", "required", "properties"]))
    }

    @Test func anUnsupportedKeywordAnywhereFailsEveryValidation() throws {
      let schema = try JSONValue(
        parsing: ##"{"$defs":{"name":{"not":{"if":{"type":"string"}}}},"$ref":"#/$defs/name"}"##)
      let validator = JSONSchemaValidator(schema: schema)
      let expected = JSONSchemaValidationError.unsupportedKeyword(
        "if", schemaLocation: "#/$defs/name/not")
      #expect(validator.schemaProblems == [expected])
      #expect(validator.validate("text") == [expected])
      #expect(validator.validate(1, against: "#/$defs/name") == [expected])
      #expect(expected.description == "#/$defs/name/not: unsupported keyword if")

      let remote = JSONSchemaValidator(schema: ["$ref": "other.json#/$defs/name"])
      #expect(remote.schemaProblems.map(\.keyword) == ["$ref"])
    }

    @Test(arguments: validatorSemantics)
    func theValidatorAgreesWithTheSpecificationOnEdgeCases(_ example: SemanticsExample) throws {
      let validator = JSONSchemaValidator(schema: try JSONValue(parsing: example.schema))
      #expect(validator.schemaProblems.isEmpty)
      let errors = validator.validate(try JSONValue(parsing: example.instance))
      #expect(errors.isEmpty == example.isValid, "\(errors.map(\.explanation))")
    }

    // MARK: - Helpers

    /// The repository's root: three levels up from this file's directory, following symbolic
    /// links so that a package that links the tests in finds the real repository.
    static let repositoryRoot: String = {
      var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
      for _ in 0..<4 { url.deleteLastPathComponent() }
      return url.path
    }()

    /// Every `*.trace.jsonl` file under `Traces/` and `Tests/Fixtures/`, recursively, sorted.
    static func traceFiles() -> [String] {
      ["/Traces", "/Tests/Fixtures"].flatMap { folder in
        let directory = repositoryRoot + folder
        let paths = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String }
        return (paths ?? []).filter { $0.hasSuffix(".trace.jsonl") }.sorted()
          .map { directory + "/" + $0 }
      }
    }

    /// Validates a trace's first line as a header and every other non-blank line as an
    /// event, recording an issue for each line that is not JSON or fails.
    /// - Returns: How many lines were validated.
    func validateTrace(
      _ bytes: [UInt8], named name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int {
      let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      // A session (version 2.x) has definitions of its own.
      let isSession =
        (try? JSONValue(parsing: lines.first ?? []))?["version"]?.stringValue?.hasPrefix("2.")
        == true
      var checked = 0
      for (index, line) in lines.enumerated() where index == 0 || !Self.isBlank(line) {
        let definition =
          switch (index == 0, isSession) {
          case (true, false): "#/$defs/header"
          case (false, false): "#/$defs/event"
          case (true, true): "#/$defs/sessionHeader"
          case (false, true): "#/$defs/sessionEvent"
          }
        do {
          let errors = validator.validate(try JSONValue(parsing: line), against: definition)
          #expect(
            errors.isEmpty,
            "\(name):\(index + 1):\n\(errors.map(\.explanation).joined(separator: "\n"))",
            sourceLocation: sourceLocation)
          checked += 1
        } catch {
          Issue.record("\(name):\(index + 1): not JSON: \(error)", sourceLocation: sourceLocation)
        }
      }
      return checked
    }

    /// Whether a line holds only whitespace, which readers skip.
    static func isBlank(_ line: some Collection<UInt8>) -> Bool {
      line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// How many lines of a trace are not blank.
    static func nonBlankLineCount(_ bytes: [UInt8]) -> Int {
      bytes.split(separator: UInt8(ascii: "\n")).count { !isBlank($0) }
    }

    /// Which branches of the schema a trace's lines take: `header.window`, `action.stream`,
    /// `mutation.diff`, `cause.effect`.
    static func features(of bytes: [UInt8]) throws -> Set<String> {
      var features: Set<String> = []
      let lines = bytes.split(separator: UInt8(ascii: "\n")).filter { !isBlank($0) }
      guard let first = lines.first else { return features }
      let header = try JSONValue(parsing: first)
      for member in [
        "initialState", "initialStateDescription", "redactions", "window", "metadata",
      ] where header[member] != nil {
        features.insert("header." + member)
      }
      if header["clock"]?["origin"] != nil { features.insert("header.clock.origin") }
      for type in ["action", "mutation", "state"] {
        if let shape = header["schema"]?[type]?["shape"] {
          collectShapeKinds(shape, into: &features)
        }
      }
      for line in lines.dropFirst() {
        let event = try JSONValue(parsing: line)
        let kind = event["kind"]?.stringValue ?? "?"
        switch kind {
        case "action":
          features.insert("action." + (event["source"]?.stringValue ?? "?"))
        case "effectEnd":
          features.insert("effectEnd." + (event["outcome"]?.stringValue ?? "?"))
        case "mutation":
          for state in ["snapshot", "diff", "stateDescription"] where event[state] != nil {
            features.insert("mutation." + state)
          }
          for cause in event["cause"]?.objectValue?.keys ?? [] { features.insert("cause." + cause) }
          for operation in event["diff"]?.arrayValue ?? [] {
            for name in ["v", "remove", "append", "truncate"] where operation[name] != nil {
              features.insert("diff." + name)
            }
          }
        default:
          features.insert(kind)
        }
      }
      return features
    }

    /// The kinds of the nodes in a type's shape, as `shape.wrapper`, and `shape.partial` for a
    /// partial one.
    static func collectShapeKinds(_ shape: JSONValue, into features: inout Set<String>) {
      guard case .object(let node) = shape else {
        features.insert("shape.primitive")
        return
      }
      let kinds = [
        "struct", "enum", "optional", "array", "set", "dictionary", "wrapper", "tuple", "ref",
        "opaque",
      ]
      guard let kind = kinds.first(where: { node[$0] != nil }) else { return }
      features.insert("shape." + kind)
      if node["partial"] == true { features.insert("shape.partial") }
      var children: [JSONValue] = []
      switch kind {
      case "struct":
        children = node["fields"]?.objectValue?.members.map(\.value) ?? []
      case "enum":
        for (_, fields) in node["cases"]?.objectValue?.members ?? [] {
          children += fields.objectValue?.members.map(\.value) ?? []
        }
      case "dictionary":
        children = [node["dictionary"], node["key"]].compactMap { $0 }
      case "wrapper":
        children = node["value"].map { [$0] } ?? []
      case "tuple":
        children = node["tuple"]?.arrayValue ?? []
      case "optional", "array", "set":
        children = node[kind].map { [$0] } ?? []
      default:
        break
      }
      for child in children { collectShapeKinds(child, into: &features) }
    }

    /// Every member name that sits where the schema has keywords.
    static func collectKeywords(in schema: JSONValue, into keywords: inout Set<String>) {
      guard case .object(let object) = schema else { return }
      for (keyword, value) in object.members {
        keywords.insert(keyword)
        switch keyword {
        case "$defs", "properties":
          for (_, subschema) in value.objectValue?.members ?? [] {
            collectKeywords(in: subschema, into: &keywords)
          }
        case "additionalProperties", "items", "not":
          collectKeywords(in: value, into: &keywords)
        case "oneOf", "anyOf":
          for branch in value.arrayValue ?? [] { collectKeywords(in: branch, into: &keywords) }
        default:
          break
        }
      }
    }

    /// A trace recorded from one of the fixture reactors.
    struct RecordedTrace: Sendable {
      var name: String
      var trace: Trace
    }

    /// Records the fixture reactors through every path a trace can take: overlapping,
    /// cancelled and failing effects, stream actions and mutations, types that are not
    /// Codable, redaction, snapshots between diffs, and both limits.
    static func recordTraces() async throws -> [RecordedTrace] {
      let traces = Box<[RecordedTrace]>([])
      try await withExclusiveMainSerialExecutor {
        traces.value.append(RecordedTrace(name: "counter", trace: try await recordCounter()))
        traces.value.append(
          RecordedTrace(
            name: "counter, last 3 events", trace: try await recordCounter(.lastEvents(3))))
        traces.value.append(RecordedTrace(name: "feed", trace: try await recordFeed()))
        traces.value.append(RecordedTrace(name: "opaque", trace: try recordOpaque()))
        traces.value.append(
          RecordedTrace(name: "opaque, first 3 events", trace: try recordOpaque(.firstEvents(3))))
        traces.value.append(RecordedTrace(name: "account", trace: try recordAccount()))
        traces.value.append(RecordedTrace(name: "large state", trace: try recordLargeState()))
        traces.value.append(
          RecordedTrace(
            name: "large state, dropping", trace: try await QueueBudget.recordDroppingTrace()))
        traces.value.append(RecordedTrace(name: "planner", trace: try recordPlanner()))
        traces.value.append(RecordedTrace(name: "like button", trace: try await recordLikes()))
      }
      return traces.value
    }

    /// Counter, on a test clock: an effect, a synchronous alert at the limit, a sequence.
    static func recordCounter(_ limit: TraceLimit = .unlimited) async throws -> Trace {
      let clock = TestClock()
      let reactor = CounterReactor(clock: clock, limit: 1)
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(limit: limit, clock: clock))
      reactor.send(.increase)
      await clock.advance(by: .milliseconds(500))
      reactor.send(.increase)
      reactor.send(.decrease)
      recorder.stop()
      return recorder.trace
    }

    /// A like button: a mutation through the stream its own effect published to, and one
    /// another screen published.
    static func recordLikes() async throws -> Trace {
      let clock = TestClock()
      let service = PostService(clock: clock, latency: .milliseconds(100))
      let button = LikeButtonReactor(post: 1, service: service)
      let recorder = try InMemoryTraceRecorder(
        recording: button, options: TraceOptions(clock: clock))
      button.send(.like)
      await clock.advance(by: .milliseconds(100))
      service.apply(.likeChanged(post: 1, isLiked: false))
      recorder.stop()
      return recorder.trace
    }

    /// Feed: overlapping loads, a cancelled search, a failing effect, a pushed mutation and a
    /// tapped action.
    static func recordFeed() async throws -> Trace {
      let clock = TestClock()
      let reactor = FeedReactor(clock: clock)
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(clock: clock))
      reactor.send(.load("slow", delay: 300))
      reactor.send(.load("fast", delay: 100))
      reactor.send(.search("re"))
      await clock.advance(by: .milliseconds(100))
      reactor.send(.search("reactor"))
      reactor.pushes.accept("hello")
      reactor.taps.accept(.load("tapped", delay: 0))
      reactor.send(.fail)
      await clock.advance(by: .milliseconds(400))
      recorder.stop()
      return recorder.trace
    }

    /// Opaque, on the continuous clock (so the header has an origin): labels and
    /// descriptions only.
    static func recordOpaque(_ limit: TraceLimit = .unlimited) throws -> Trace {
      let reactor = OpaqueReactor()
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(limit: limit))
      for value in 1...3 { reactor.send(.poke(value)) }
      recorder.stop()
      return recorder.trace
    }

    /// Account, with the password redacted.
    static func recordAccount() throws -> Trace {
      let reactor = AccountReactor()
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(redactions: ["action.login.password"]))
      reactor.send(.login(user: "ana", password: "hunter2"))
      recorder.stop()
      return recorder.trace
    }

    /// A large state, stored as diffs with a snapshot every third mutation.
    static func recordLargeState() throws -> Trace {
      let reactor = LargeStateReactor()
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(snapshotInterval: 3))
      for step in 0..<8 { reactor.send(.set(index: step * 3, value: step + 1)) }
      recorder.stop()
      return recorder.trace
    }

    /// Planner: a state of every shape a header can describe (dates, ranges, wrapped
    /// strings, enum-keyed dictionaries, sets, a recursive enum, a type the probe cannot
    /// decode), and mutations that remove a member and truncate an array.
    static func recordPlanner() throws -> Trace {
      let reactor = PlannerReactor()
      let recorder = try InMemoryTraceRecorder(recording: reactor)
      reactor.send(.archive)
      recorder.stop()
      return recorder.trace
    }
  }
}

/// A reactor whose state holds every kind of shape, for the schema's `#/$defs/shape`.
private final class PlannerReactor: Reactor {
  enum Action: Codable, Sendable {
    case archive
  }

  enum Status: String, Codable, Sendable {
    case open
    case done
  }

  /// A string decoded from a single value: a wrapper.
  struct OwnerID: Codable, Sendable {
    var rawValue: String

    init(rawValue: String) { self.rawValue = rawValue }

    init(from decoder: any Decoder) throws {
      rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }
  }

  /// A recursive enum: a reference to itself.
  indirect enum Outline: Codable, Sendable {
    case item(String)
    case section([Outline])
  }

  /// A value only one string decodes, which no probe guesses: opaque.
  struct Seal: Codable, Sendable {
    init() {}

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      guard try container.decode(String.self) == "sealed by the planner" else {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "not sealed")
      }
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode("sealed by the planner")
    }
  }

  struct State: Codable, Sendable {
    var due = Date(timeIntervalSince1970: 1_800_000_000)
    var pages = 1..<4
    var owner = OwnerID(rawValue: "ana")
    var countsByStatus: [Status: Int] = [.open: 2]
    var countsByDay: [Int: Int] = [1: 2]
    var status = Status.open
    var tags: Set<String> = ["home"]
    var history = [1, 2, 3]
    var note: String? = "draft"
    var outline = Outline.section([.item("intro")])
    // Last: probing stops at the value it cannot make, so the shape is partial from here.
    var seal = Seal()
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    switch mutation {
    case .archive:
      state.note = nil
      state.history.removeLast()
      state.status = .done
    }
    return state
  }
}

/// A line the schema must reject, and an error the validator must give for it somewhere in
/// its tree of errors.
struct RejectedLine: Sendable, CustomTestStringConvertible {
  var name: String
  var line: JSONValue
  var definition: String
  var error: String
  var schemaLocation: String

  var testDescription: String { name }
}

/// A line the schema must accept.
struct AcceptedLine: Sendable, CustomTestStringConvertible {
  var name: String
  var line: JSONValue
  var definition: String

  var testDescription: String { name }
}

/// A schema, an instance, and whether draft 2020-12 says the instance is valid.
struct SemanticsExample: Sendable, CustomTestStringConvertible {
  var schema: String
  var instance: String
  var isValid: Bool

  var testDescription: String { "\(instance) against \(schema)" }
}

extension JSONValue {
  /// The object with `key` set to `value`, or removed when `value` is `nil`.
  fileprivate func setting(_ key: String, _ value: JSONValue?) -> JSONValue {
    guard case .object(var object) = self else { return self }
    object[key] = value
    return .object(object)
  }
}

private let typeDescription: JSONValue = [
  "type": "T", "codable": false, "digest": "0000000000000000",
]

private let validHeader: JSONValue = [
  "format": "reactor-trace", "version": "1.0", "reactor": "App.CounterReactor",
  "clock": ["name": "TestClock<Duration>"],
  "schema": ["action": typeDescription, "mutation": typeDescription, "state": typeDescription],
  "initialState": ["value": 0], "initialStateHash": "af4b0e6b2bd2c6a4",
]

private let validAction: JSONValue = [
  "seq": 1, "t": 0, "kind": "action", "id": 1, "label": "increase", "source": "sent",
]

private let validMutation: JSONValue = [
  "seq": 3, "t": 0, "kind": "mutation", "id": 1, "label": "increaseValue",
  "cause": ["action": 1, "effect": 1], "diff": [["p": ["value"], "v": 1]],
  "hash": "6d2e0c1a9b3f4e57",
]

private let validEffectEnd: JSONValue = [
  "seq": 6, "t": 500_000_000, "kind": "effectEnd", "effect": 1, "outcome": "finished",
]

private let rejectedLines: [RejectedLine] = [
  RejectedLine(
    name: "a header without format", line: validHeader.setting("format", nil),
    definition: "#/$defs/header", error: #"(root): required: "format" is missing"#,
    schemaLocation: "#/$defs/header/required"),
  RejectedLine(
    name: "a header of version 2.0", line: validHeader.setting("version", "2.0"),
    definition: "#/$defs/header", error: #"/version: pattern: "2.0" does not match ^1\.[0-9]+$"#,
    schemaLocation: "#/$defs/header/properties/version/pattern"),
  RejectedLine(
    name: "an event without seq", line: validAction.setting("seq", nil),
    definition: "#/$defs/event", error: #"(root): required: "seq" is missing"#,
    schemaLocation: "#/$defs/event/required"),
  RejectedLine(
    name: "an event with seq 0", line: validAction.setting("seq", 0),
    definition: "#/$defs/event", error: "/seq: minimum: 0 is less than 1",
    schemaLocation: "#/$defs/positiveInteger/minimum"),
  RejectedLine(
    name: "a mutation with both a snapshot and a diff",
    line: validMutation.setting("snapshot", ["value": 1]),
    definition: "#/$defs/event", error: "(root): oneOf matched 2 schemas",
    schemaLocation: "#/$defs/mutation/oneOf"),
  RejectedLine(
    name: "a mutation without a state", line: validMutation.setting("diff", nil),
    definition: "#/$defs/event", error: "(root): oneOf matched 0 schemas",
    schemaLocation: "#/$defs/mutation/oneOf"),
  RejectedLine(
    name: "a cause with both an action and a stream",
    line: validMutation.setting("cause", ["action": 1, "stream": "server"]),
    definition: "#/$defs/event", error: "/cause: oneOf matched 0 schemas",
    schemaLocation: "#/$defs/mutation/properties/cause/oneOf"),
  RejectedLine(
    name: "a failed effectEnd without an error",
    line: validEffectEnd.setting("outcome", "failed"),
    definition: "#/$defs/event", error: #"(root): required: "error" is missing"#,
    schemaLocation: "#/$defs/effectEnd/oneOf/1/required"),
  RejectedLine(
    name: "a diff operation with two operations",
    line: validMutation.setting("diff", [["p": ["value"], "v": 1, "remove": true]]),
    definition: "#/$defs/event", error: "/diff/0: oneOf matched 2 schemas",
    schemaLocation: "#/$defs/diffOperation/oneOf"),
  RejectedLine(
    name: "a hash of 15 digits", line: validMutation.setting("hash", "6d2e0c1a9b3f4e5"),
    definition: "#/$defs/event",
    error: #"/hash: pattern: "6d2e0c1a9b3f4e5" does not match ^[0-9a-f]{16}$"#,
    schemaLocation: "#/$defs/hash/pattern"),
]

private let acceptedLines: [AcceptedLine] = [
  AcceptedLine(name: "the base header", line: validHeader, definition: "#/$defs/header"),
  AcceptedLine(name: "the base action", line: validAction, definition: "#/$defs/event"),
  AcceptedLine(name: "the base mutation", line: validMutation, definition: "#/$defs/event"),
  AcceptedLine(name: "the base effectEnd", line: validEffectEnd, definition: "#/$defs/event"),
  AcceptedLine(
    name: "an event of a kind from a newer minor version",
    line: ["seq": 3, "t": 0, "kind": "breakpoint"], definition: "#/$defs/event"),
  AcceptedLine(
    name: "a header with unknown members",
    line: validHeader.setting("future", ["nested": [1, 2]])
      .setting(
        "clock", ["name": "ContinuousClock", "origin": "2026-11-22T09:30:00.123Z", "tz": 0]),
    definition: "#/$defs/header"),
  AcceptedLine(
    name: "events with unknown members",
    line: validAction.setting("future", true), definition: "#/$defs/event"),
  AcceptedLine(
    name: "a mutation whose cause and diff operations have unknown members",
    line: validMutation.setting("cause", ["stream": "server", "future": 1])
      .setting("diff", [["p": ["log"], "append": ["x"], "future": nil]]),
    definition: "#/$defs/event"),
  AcceptedLine(
    name: "a failed effectEnd with its error",
    line: validEffectEnd.setting("outcome", "failed").setting("error", "network down"),
    definition: "#/$defs/event"),
  AcceptedLine(
    name: "every diff operation",
    line: validMutation.setting(
      "diff",
      [
        ["p": [], "v": ["log": [], "draft": "x"]], ["p": ["draft"], "remove": true],
        ["p": ["log"], "append": [1, 2]], ["p": ["log"], "truncate": 1],
        ["p": ["log", 0], "v": 3],
      ]),
    definition: "#/$defs/event"),
  AcceptedLine(
    name: "a stream that failed",
    line: ["seq": 9, "t": 0, "kind": "streamEnd", "stream": "server", "error": "closed"],
    definition: "#/$defs/event"),
]

private let validatorSemantics: [SemanticsExample] = [
  SemanticsExample(schema: #"{"type":"integer"}"#, instance: "3.0", isValid: true),
  SemanticsExample(schema: #"{"type":"integer"}"#, instance: "3.5", isValid: false),
  SemanticsExample(
    schema: #"{"type":"integer"}"#, instance: "18446744073709551615", isValid: true),
  SemanticsExample(schema: #"{"type":"integer"}"#, instance: #""3""#, isValid: false),
  SemanticsExample(schema: #"{"type":["string","null"]}"#, instance: "null", isValid: true),
  SemanticsExample(schema: #"{"minimum":1}"#, instance: "0.999", isValid: false),
  SemanticsExample(schema: #"{"minimum":1}"#, instance: "1e0", isValid: true),
  SemanticsExample(schema: #"{"minimum":-1}"#, instance: "18446744073709551615", isValid: true),
  SemanticsExample(schema: #"{"minimum":1}"#, instance: #""text""#, isValid: true),
  SemanticsExample(schema: #"{"const":1}"#, instance: "1.0", isValid: true),
  SemanticsExample(schema: #"{"const":true}"#, instance: "1", isValid: false),
  SemanticsExample(schema: #"{"enum":[{"a":[1]}]}"#, instance: #"{"a":[1.0]}"#, isValid: true),
  SemanticsExample(schema: #"{"minLength":2}"#, instance: #""é""#, isValid: false),
  SemanticsExample(schema: #"{"pattern":"^a$"}"#, instance: #""a\n""#, isValid: false),
  SemanticsExample(schema: #"{"pattern":"b"}"#, instance: #""abc""#, isValid: true),
  SemanticsExample(
    schema: #"{"properties":{"a":true},"additionalProperties":false}"#,
    instance: #"{"a":1,"b":2}"#, isValid: false),
  SemanticsExample(schema: #"{"items":{"type":"string"}}"#, instance: #"["a",1]"#, isValid: false),
  SemanticsExample(schema: #"{"oneOf":[true,true]}"#, instance: "0", isValid: false),
  SemanticsExample(schema: #"{"anyOf":[false,true]}"#, instance: "0", isValid: true),
  SemanticsExample(schema: #"{"not":{"required":["a"]}}"#, instance: #"{"a":0}"#, isValid: false),
  SemanticsExample(schema: "false", instance: "null", isValid: false),
]
