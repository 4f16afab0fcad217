import Foundation
import ReactorExampleRegistry
import ReactorReplay
import ReactorScript
import ReactorTestSupport
import ReactorTracing
import Testing

@testable import ReactorTraceCLI

/// The property of valid app scripts (issue 40).
///
/// Generated scripts of the example apps that `record` accepts record the same bytes twice,
/// replay structurally and through mutate (effects run, and played back from the recording)
/// without a divergence, and record again (`rerecord`) byte for byte. Scripts whose steps
/// reach no reactor are not valid and are skipped; a failure says how many were valid.
///
/// `swift test` checks 150 generated scripts per app (the distinct valid ones among them).
/// `scripts/app-scripts.sh` runs the same property over 1,000 distinct valid scripts
/// (`REACTOR_TRACE_APP_SCRIPTS=1000`, half per app) and keeps each valid script and its
/// session in `REACTOR_TRACE_APP_SCRIPTS_DIR`, for the checks made with the command-line
/// tool: two recordings at once, and generated tests that compile.
@MainActor
@Suite("Generated valid app scripts record, replay and record again identically")
struct AppScriptPropertyTests {
  /// A small deterministic generator (SplitMix64).
  private struct Generator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }

    mutating func pick<T>(_ choices: [T]) -> T {
      choices[Int(next() % UInt64(choices.count))]
    }
  }

  /// Gaps between steps, in milliseconds: same time, fractions, effects' latencies and
  /// around them, and long pauses.
  private static let gaps = [
    "0", "0", "0.5", "1", "10", "12.25", "49", "50", "99", "100", "101", "333", "20000",
  ]

  /// A script of the task app: its list, edit screen and rows.
  private static func taskAppScript(_ random: inout Generator) -> String {
    var lines = [#"{"app": "TaskApp"}"#]
    var time = 0.0
    if random.next() % 10 < 7 { lines.append(#"{"t": 0, "to": "list", "action": "refresh"}"#) }
    for _ in 0..<(1 + Int(random.next() % 6)) {
      time += Double(random.pick(gaps))!
      let (target, action) =
        switch random.next() % 4 {
        case 0:
          (
            "list",
            random.pick([#""refresh""#, #"{"delete": {"id": \#(1 + random.next() % 5)}}"#])
          )
        case 1, 2:
          (
            "edit",
            random.pick([
              #""save""#, #"{"setTitle": {"_0": "T\#(random.next() % 3)"}}"#,
              #"{"edit": {"_0": {"id": \#(1 + random.next() % 3), "title": "X", "isDone": false}}}"#,
            ])
          )
        default:
          (
            random.pick([
              "list/cells.0", "list/cells.1", "list/cells[task.id=2]", "list/cells[task.id=4]",
            ]), #""toggle""#
          )
        }
      lines.append(#"{"t": \#(time), "to": "\#(target)", "action": \#(action)}"#)
    }
    return lines.joined(separator: "\n")
  }

  /// A script of the todo app: its list, rows (inline), and edit screens made on demand.
  private static func todoAppScript(_ random: inout Generator) -> String {
    var lines = [#"{"app": "TodoApp"}"#]
    var time = 0.0
    for _ in 0..<(1 + Int(random.next() % 6)) {
      time += Double(random.pick(gaps))!
      let (target, action) =
        switch random.next() % 4 {
        case 0:
          (
            "list",
            // Index paths past the rows trap, as in the app: a script with one is not valid.
            random.pick([#""refresh""#, #""addTask""#])
          )
        case 1, 2:
          (
            random.pick(["edit", "edit[-1]", "TodoEditReactor[0]"]),
            random.pick([
              #""submit""#, #""cancel""#, #"{"updateTitle": {"_0": "T\#(random.next() % 3)"}}"#,
            ])
          )
        default:
          (
            random.pick([
              "list/sections.0.items[id=task-2]", "list/sections.0.items[isDone=true]",
              "TodoCellReactor[-1]",
            ]), #""toggle""#
          )
        }
      lines.append(#"{"t": \#(time), "to": "\#(target)", "action": \#(action)}"#)
    }
    return lines.joined(separator: "\n")
  }

  /// What went wrong with one valid script, if anything.
  private func check(_ text: String, app: String) async throws -> ([String], [UInt8])? {
    let registry = ReactorRegistry.examples
    let entry = try registry.sessionEntry(app: app)
    let script = try ReactorScript(parsing: text, name: "generated.jsonl")
    var problems: [String] = []
    var first: SessionTrace?
    var second: SessionTrace?
    do {
      try await withExclusiveMainSerialExecutor {
        first = try await entry.record(script, script.metadata, .seconds(10), nil).session
        second = try await entry.record(script, script.metadata, .seconds(10), nil).session
      }
    } catch let error as ScriptError {
      if case .unreachableReactor = error { return nil }
      return (["record: \(error)"], [])
    }
    guard let first, let second else { return (["record: no session"], []) }
    if first.serialized != second.serialized { problems.append("record gave other bytes") }
    let structural = try StructuralReplay(first)
    while try structural.next() != nil {}
    if !structural.divergences.isEmpty { problems.append("structural: \(structural.divergences)") }
    for effects in [ReplayEffects.run, .recorded] {
      var result: SessionMutateReplay.Result?
      try await withExclusiveMainSerialExecutor {
        result = try await entry.mutate(first, effects, .seconds(10))
      }
      if let divergence = result?.divergence {
        problems.append("mutate, effects \(effects): \(divergence)")
      } else if effects == .run, result?.replayed.serialized != first.serialized {
        problems.append("rerecord gave other bytes")
      }
    }
    return (problems, first.serialized)
  }

  /// How many valid scripts to reach per app, and where to keep them: from the environment
  /// (`scripts/app-scripts.sh`), else none kept and 150 scripts generated.
  private static var wanted: (valid: Int?, directory: String?) {
    let environment = ProcessInfo.processInfo.environment
    let total = environment["REACTOR_TRACE_APP_SCRIPTS"].flatMap { Int($0) }.map { max(2, $0) }
    return (total.map { ($0 + 1) / 2 }, environment["REACTOR_TRACE_APP_SCRIPTS_DIR"])
  }

  @Test(arguments: ["TaskApp", "TodoApp"])
  func generatedValidScriptsRecordReplayAndRecordAgainIdentically(app: String) async throws {
    var random = Generator(state: app == "TaskApp" ? 40 : 39)
    let (wantedValid, directory) = Self.wanted
    var valid = 0
    var generated = 0
    var seen: Set<String> = []
    var failures: [String] = []
    var attempts = 0
    // At least 150 distinct scripts per app and 30 valid ones, or as many as give the valid
    // scripts wanted.
    while wantedValid.map({ valid < $0 }) ?? (generated < 150 || valid < 30),
      attempts < 20 * (wantedValid ?? 150)
    {
      attempts += 1
      let text = app == "TaskApp" ? Self.taskAppScript(&random) : Self.todoAppScript(&random)
      // Each script once: a valid script counts only the first time it is generated.
      guard seen.insert(text).inserted else { continue }
      generated += 1
      guard let (problems, session) = try await check(text, app: app) else { continue }
      valid += 1
      if !problems.isEmpty { failures.append(text + "\n  " + problems.joined(separator: "\n  ")) }
      if let directory {
        let name = "\(directory)/\(app.lowercased())-\(valid)"
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: name + ".script.jsonl"))
        try Data(session).write(to: URL(fileURLWithPath: name + ".session.jsonl"))
      }
    }
    #expect(
      valid >= (wantedValid ?? 30), "only \(valid) of \(generated) generated scripts were valid")
    #expect(
      failures.isEmpty,
      "\(failures.count) of \(valid) valid scripts:\n\(failures.joined(separator: "\n"))")
  }
}
