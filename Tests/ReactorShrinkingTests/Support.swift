import ArgumentParser
import Foundation
import ReactorExampleRegistry
import ReactorExamples
import ReactorTestGeneration
import ReactorTestSupport
import ReactorTraceCLI
import ReactorTracing

/// What a `reactor-trace` run gave.
struct CommandResult {
  var status: Int32
  var output: String
  var error: String
}

/// Runs the built `reactor-trace` binary (worker processes and all), its standard input
/// read from the file at `standardInput` (none when `nil`).
func runBinary(_ arguments: [String], standardInput: String? = nil) throws -> CommandResult {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  var binary: URL?
  for _ in 0..<4 {
    let candidate = directory.appendingPathComponent("reactor-trace")
    if FileManager.default.isExecutableFile(atPath: candidate.path) {
      binary = candidate
      break
    }
    directory = directory.deletingLastPathComponent()
  }
  guard let binary else { throw CocoaError(.fileNoSuchFile) }
  let process = Process()
  process.executableURL = binary
  process.arguments = arguments
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  if let standardInput {
    process.standardInput = FileHandle(forReadingAtPath: standardInput)
  }
  try process.run()
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  let errorData = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return CommandResult(
    status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
    error: String(decoding: errorData, as: UTF8.self))
}

/// Runs `reactor-trace` in this process with `registry` (candidates run here, one at a
/// time); returns the exit code.
@MainActor
func runInProcess(_ arguments: [String], registry: ReactorRegistry) async throws -> Int32 {
  // Alone on the main serial executor: other test targets' clocks would interleave.
  await SerialExecutorGate.shared.enter()
  do {
    let status = try await runAlone(arguments, registry: registry)
    await SerialExecutorGate.shared.leave()
    return status
  } catch {
    await SerialExecutorGate.shared.leave()
    throw error
  }
}

@MainActor
private func runAlone(_ arguments: [String], registry: ReactorRegistry) async throws -> Int32 {
  try await ReactorRegistry.$current.withValue(registry) {
    var command = try ReactorTraceCommand.parseAsRoot(arguments)
    do {
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
      return 0
    } catch let exit as ExitCode {
      return exit.rawValue
    }
  }
}

/// A new empty directory, removed when the test ends.
final class Scratch {
  let path: String

  init() throws {
    path = NSTemporaryDirectory() + "shrink-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func file(_ name: String) -> String { path + "/" + name }

  func write(_ text: String, to name: String) throws -> String {
    try text.write(toFile: file(name), atomically: true, encoding: .utf8)
    return file(name)
  }

  func read(_ name: String) throws -> String {
    try String(contentsOfFile: file(name), encoding: .utf8)
  }
}

/// The example registry with the seeded task app's session factory (spelled for the test
/// `--test` writes too), and the Counter with an invariant a walk breaks: `value below 5`.
var seededRegistry: ReactorRegistry {
  var registry = ReactorRegistry.examples
  registry.register(
    CounterReactor.self, invariants: ["value below 5": { $0.value < 5 }],
    test: { metadata in
      ReactorFactory(
        expression: "CounterReactor(clock: clock, limit: \(metadata.integer("limit") ?? 10))",
        imports: ["ReactorExamples"])
    },
    make: { context in
      CounterReactor(clock: context.clock, limit: context.integer("limit") ?? 10)
    })
  registry.registerSession(
    app: "SeededTaskApp", including: { $0 is SeededListReactor || $0 is SeededCellReactor },
    test: { _ in
      SessionFactory(
        setup: [
          "let app = SeededTaskApp(clock: clock)", #"recorder.record(app.list, name: "list")"#,
          "app.bindViews()",
        ], including: "{ $0 is SeededListReactor || $0 is SeededCellReactor }")
    },
    make: { context in
      let app = SeededTaskApp(clock: context.clock)
      context.recorder.record(app.list, name: "list")
      app.bindViews()
      return app
    })
  return registry
}

/// The session script of the seeded app (2,000 steps, 150 ms apart) that shows its bug once:
/// taps on the first, third and fourth rows and refreshes, one delete of the second task at
/// 60 % of the steps, then taps on the first row only, but for one tap on the fourth task's row
/// at 90 % (after a refresh): that one flips the wrong row, the fifth task's, which no tap
/// names.
func seededScript(steps: Int = 2_000) -> String {
  let delete = steps * 6 / 10
  let tap = steps * 9 / 10
  var random = LinearCongruence(seed: 41)
  var lines = [#"{"app": "SeededTaskApp"}"#, #"{"t": 0, "to": "list", "action": "refresh"}"#]
  for step in 1..<steps {
    let time = step * 150
    let action: String
    switch step {
    case delete: action = #""to": "list", "action": {"delete": {"id": 2}}"#
    case tap - 1: action = #""to": "list", "action": "refresh""#
    case tap: action = #""to": "list/cells[task.id=4]", "action": "toggle""#
    default:
      let roll = random.next() % 10
      if roll == 0 {
        action = #""to": "list", "action": "refresh""#
      } else {
        let task = step < delete ? [1, 3, 4][Int(random.next() % 3)] : 1
        action = #""to": "list/cells[task.id=\#(task)]", "action": "toggle""#
      }
    }
    lines.append(#"{"t": \#(time), \#(action)}"#)
  }
  return lines.joined(separator: "\n") + "\n"
}

/// A counter walk of `steps` steps, 600 ms apart (an increase takes 500 ms), that reaches 10
/// once, at step 200.
func counterWalk(steps: Int = 300) -> String {
  var random = LinearCongruence(seed: 7)
  var lines = [#"{"reactor": "ReactorExamples.CounterReactor", "meta": {"limit": "20"}}"#]
  var value = 0
  var reached = false
  for step in 0..<steps {
    let up: Bool
    if !reached, step >= 200, value == 9 {
      up = true
      reached = true
    } else if value >= 9 {
      up = false
    } else if value == 0 {
      up = true
    } else {
      up = random.next() % 2 == 0
    }
    value += up ? 1 : -1
    lines.append(#"{"t": \#(step * 600), "action": "\#(up ? "increase" : "decrease")"}"#)
  }
  return lines.joined(separator: "\n") + "\n"
}

/// A small deterministic generator for the fixtures.
struct LinearCongruence {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state >> 33
  }
}
