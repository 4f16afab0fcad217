import Foundation
import ReactorTracing

@testable import ReactorQuery

/// The repository, whose Traces/ the tests ask about.
let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// The folder holding the executables built next to the test runner.
func productsDirectory() throws -> URL {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for _ in 0..<4 {
    if FileManager.default.isExecutableFile(
      atPath: directory.appendingPathComponent("reactor-trace-mcp").path)
    {
      return directory
    }
    directory = directory.deletingLastPathComponent()
  }
  throw CocoaError(.fileNoSuchFile)
}

/// A service over the repository, redacting by default, with checkpoints every
/// `checkpointInterval` events.
func makeQueries(
  redaction: AnswerRedaction? = nil, checkpointInterval: Int = 4096, root: String = repositoryRoot
) throws -> TraceQueries {
  let reactorTrace =
    (try? productsDirectory().appendingPathComponent("reactor-trace").path)
    ?? "/nonexistent/reactor-trace"
  return TraceQueries(
    root: try TraceRoot(path: root),
    redaction: try redaction ?? AnswerRedaction(rules: AnswerRedaction.defaultRules),
    reactorTrace: reactorTrace, checkpointInterval: checkpointInterval)
}

extension TraceQueries {
  /// The answer of a call that must succeed.
  func answer(_ tool: String, _ arguments: JSONValue) throws -> QueryAnswer {
    try call(tool, arguments: arguments).get()
  }

  /// The error of a call that must fail.
  func failure(_ tool: String, _ arguments: JSONValue) -> QueryError? {
    if case .failure(let error) = call(tool, arguments: arguments) { return error }
    return nil
  }
}
