import Foundation
import ReactorTracing
import Testing

/// `--key tasks.0.title` in every command that takes a state path, with one meaning: the
/// title of the first task, an index into the `tasks` array.
@Suite("One state path in every command, end to end")
struct StatePathCommandTests {
  private let tasklist = "Traces/tasklist.trace.jsonl"

  private func text(of path: String) throws -> String {
    String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
  }

  @Test(arguments: ["tasks.0.title", "tasks[0].title"])
  func renderTransitionsProjectsOntoAnArrayElementsField(_ key: String) throws {
    let scratch = try ScratchDirectory()
    let dot = scratch.file("tasks.dot")
    let result = try runReactorTrace([
      "render", "transitions", tasklist, "--key", key, "--format", "dot", "-o", dot,
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.hasPrefix("wrote \(dot): 2 states, "))
    let graph = try text(of: dot)
    #expect(graph.contains("tasks.0.title"))
    #expect(graph.contains("Write the reducer"))
  }

  @Test func renderInspectorProjectsItsDiagramOntoTheSamePath() throws {
    let scratch = try ScratchDirectory()
    let html = scratch.file("tasks.html")
    let result = try runReactorTrace([
      "render", "inspector", tasklist, "--key", "tasks.0.title", "-o", html,
    ])
    #expect(result.exitCode == 0, "\(result.standardError)")
    let page = try text(of: html)
    #expect(page.contains("tasks.0.title"))
  }

  @Test func exploreIdentifiesStatesByTheSamePathInEitherSpelling() throws {
    var outputs: [String] = []
    for key in ["tasks.0.title", "tasks[0].title"] {
      let result = try runReactorTrace([
        "explore", "ReactorExamples.TaskListReactor", "--actions-from", tasklist,
        "--max-depth", "2", "--key", key, "--format", "json",
      ])
      #expect(result.exitCode == 0, "\(result.standardError)")
      outputs.append(result.standardOutput)
    }
    #expect(outputs[0] == outputs[1])
    let exploration = try JSONValue(parsing: outputs[0])
    #expect(exploration["identity"] == .array(["tasks.0.title"]))
    let values = try #require(exploration["states"]?.arrayValue).compactMap { $0["value"] }
    #expect(values.contains(.object(JSONObject([("tasks.0.title", "Write the reducer")]))))
    #expect(values.allSatisfy { $0.objectValue?.members.map(\.key) == ["tasks.0.title"] })
  }

  @Test func generateTestChecksOnlyTheFieldAtThePath() throws {
    let result = try runReactorTrace(["generate-test", tasklist, "--key", "tasks.0.title"])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains(##"field("tasks.0.title") == #""Write the reducer""#"##))
    #expect(!result.standardOutput.contains(#"field("isLoading")"#))
    #expect(!result.standardOutput.contains(#"field("tasks.1."#))
  }

  @Test(arguments: [
    ["render", "transitions", "Traces/tasklist.trace.jsonl", "-o", "/dev/null"],
    ["render", "inspector", "Traces/tasklist.trace.jsonl", "-o", "/dev/null"],
    [
      "explore", "ReactorExamples.TaskListReactor", "--actions-from", "Traces/tasklist.trace.jsonl",
    ],
    ["generate-test", "Traces/tasklist.trace.jsonl"],
  ])
  func aMalformedPathIsTheSameUsageErrorEverywhere(_ command: [String]) throws {
    let result = try runReactorTrace(command + ["--key", "tasks..title"])
    #expect(result.exitCode == 64)
    #expect(
      result.standardError.hasPrefix(
        "Error: --key 'tasks..title' is not a state path: it has an empty field name"))
  }

  @Test func aPathTheStateCannotHaveIsNamedWithTheFieldsItHas() throws {
    let result = try runReactorTrace([
      "render", "transitions", tasklist, "--key", "tasks.0.name", "--format", "dot", "-o",
      "/dev/null",
    ])
    #expect(result.exitCode == 2)
    #expect(
      result.standardError.hasPrefix(
        "reactor-trace: unknown --key 'tasks.0.name': the trace's state has no such field; "
          + "its fields, closest first: tasks.0.id, tasks.0.title, "))
  }
}
