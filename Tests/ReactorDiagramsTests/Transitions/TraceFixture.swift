import Foundation
import ReactorTracing

/// Builds trace bytes in memory: a header copied from a sample trace with its own reactor
/// and initial state, and events whose states carry correct hashes.
struct TraceFixture {
  private var lines: [String] = []
  private var state: JSONValue
  private var sequence = 0
  private var mutationID = 0
  /// The time of the next events; one millisecond per event when `nil`.
  var time: Duration?

  init(reactor: String = "Tests.FixtureReactor", initialState: JSONValue) throws {
    let sample = try String(contentsOfFile: sampleTracePath("counter"), encoding: .utf8)
    let header = try JSONValue(parsing: String(sample.prefix { $0 != "\n" }))
    let members = header.objectValue!.members.map { member -> (String, JSONValue) in
      switch member.key {
      case "reactor": (member.key, .string(reactor))
      case "initialState": (member.key, initialState)
      case "initialStateHash": (member.key, .string(initialState.canonicalHash.description))
      default: (member.key, member.value)
      }
    }
    lines.append(JSONValue.object(JSONObject(members)).serializedString)
    state = initialState
  }

  private mutating func event(_ kind: String, _ members: [(String, JSONValue)]) {
    sequence += 1
    let all =
      [
        ("seq", JSONValue.int(Int64(sequence))),
        ("t", .int(time.map(Self.nanoseconds) ?? Int64(sequence) * 1_000_000)),
        ("kind", .string(kind)),
      ] + members
    lines.append(JSONValue.object(JSONObject(all)).serializedString)
  }

  private static func nanoseconds(_ time: Duration) -> Int64 {
    time.components.seconds * 1_000_000_000 + time.components.attoseconds / 1_000_000_000
  }

  mutating func action(_ id: Int, _ label: String) {
    event("action", [("id", .int(Int64(id))), ("label", .string(label)), ("source", "sent")])
  }

  mutating func effectStart(_ effect: Int, action: Int, name: String) {
    event(
      "effectStart",
      [("effect", .int(Int64(effect))), ("action", .int(Int64(action))), ("name", .string(name))])
  }

  mutating func effectEnd(_ effect: Int, outcome: String) {
    event("effectEnd", [("effect", .int(Int64(effect))), ("outcome", .string(outcome))])
  }

  mutating func mutation(_ label: String, action: Int, effect: Int? = nil, state: JSONValue) {
    mutationID += 1
    var cause: [(String, JSONValue)] = [("action", .int(Int64(action)))]
    if let effect { cause.append(("effect", .int(Int64(effect)))) }
    self.state = state
    event(
      "mutation",
      [
        ("id", .int(Int64(mutationID))), ("label", .string(label)),
        ("cause", .object(JSONObject(cause))), ("snapshot", state),
        ("hash", .string(state.canonicalHash.description)),
      ])
  }

  /// A mutation stored as a diff: `operations` (as written in a trace) must turn the previous
  /// state into `state`, or the reader reports a hash mismatch.
  mutating func mutation(
    _ label: String, action: Int, diff operations: [JSONValue], state: JSONValue
  ) {
    mutationID += 1
    self.state = state
    event(
      "mutation",
      [
        ("id", .int(Int64(mutationID))), ("label", .string(label)),
        ("cause", .object(JSONObject([("action", .int(Int64(action)))]))),
        ("diff", .array(operations)), ("hash", .string(state.canonicalHash.description)),
      ])
  }

  var bytes: [UInt8] { Array((lines.joined(separator: "\n") + "\n").utf8) }

  func reader() throws -> TraceReader {
    try TraceReader(bytes: bytes)
  }
}
