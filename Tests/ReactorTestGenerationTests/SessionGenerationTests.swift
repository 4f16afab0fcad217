import Foundation
import ReactorExampleRegistry
import ReactorTestGeneration
import Testing

@testable import ReactorTraceCLI

/// What a test generated from a session does with the session's scripted events, and which
/// inputs it refuses.
@Suite struct SessionGenerationTests {
  private static let session = GeneratedFiles.root + "/Traces/taskapp.session.jsonl"

  /// The task app's session with a scripted event at 300 ms in its metadata, in a scratch file.
  private static func sessionWithAnEvent() throws -> String {
    let text = try String(contentsOfFile: session, encoding: .utf8)
    let events = #"[{\"t\":300,\"event\":{\"rename\":{\"id\":1}}}]"#
    let changed = text.replacingOccurrences(
      of: #""metadata":{"app":"TaskApp"}"#,
      with: #""metadata":{"app":"TaskApp","script.events":""# + events + #""}"#)
    #expect(changed != text)
    let path = NSTemporaryDirectory() + "reactor-trace-events-\(getpid()).session.jsonl"
    try changed.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func aSessionsScriptedEventsGoToTheFactorysDeliverBeforeTheActionsAtTheirTime() throws {
    let path = try Self.sessionWithAnEvent()
    defer { try? FileManager.default.removeItem(atPath: path) }
    var factory = try #require(
      ReactorRegistry.examples.sessionTestFactory(for: "TaskApp", metadata: [:]))
    factory.deliver = "app.service.apply"
    let source = try TestGenerator().source(forSessions: [path]) { _, _ in factory }
    let delivery = try #require(
      source.range(of: ##"app.service.apply(try decoded(#"{"rename":{"id":1}}"#))"##))
    let comment = try #require(
      source.range(of: #"// scripted event at 300 ms: {"rename":{"id":1}}"#))
    let action = try #require(source.range(of: "// edit #2's action 3, sent at 300 ms"))
    let clock = try #require(source.range(of: "// 300 ms"))
    #expect(clock.lowerBound < comment.lowerBound)
    #expect(comment.lowerBound < delivery.lowerBound)
    #expect(delivery.lowerBound < action.lowerBound)

    factory.deliver = nil
    #expect(throws: TestGenerationError.self) {
      try TestGenerator().source(forSessions: [path]) { _, _ in factory }
    }
  }

  @Test func aGeneratedTestImportsTheReactorsOwnModuleUntold() throws {
    var factory = try #require(
      ReactorRegistry.examples.sessionTestFactory(for: "TaskApp", metadata: [:]))
    factory.imports = []
    let source = try TestGenerator().source(forSessions: [Self.session]) { _, _ in factory }
    let imports = source.split(separator: "\n").filter { $0.hasPrefix("import ") }
    #expect(imports.contains("import ReactorExamples"), "\(imports)")
    #expect(imports.contains("import ReactorTracing"))
  }

  @Test func aMessageTooLongForALineIsACommentOfPiecesAndNoLineIsLonger() throws {
    let text = try String(contentsOfFile: Self.session, encoding: .utf8)
    let name = "the edit screen of the task app, where a task is renamed or a new one typed"
    let path = NSTemporaryDirectory() + "reactor-trace-long-\(getpid()).session.jsonl"
    try text.replacingOccurrences(of: #""name":"edit""#, with: #""name":""# + name + #"""#)
      .write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let factory = ReactorRegistry.examples.sessionTestFactory(for: "TaskApp", metadata: [:])
    for framework in [TestGenerationOptions.Framework.swiftTesting, .xctest] {
      let source = try TestGenerator(options: TestGenerationOptions(framework: framework))
        .source(forSessions: [path]) { _, _ in factory }
      let long = source.split(separator: "\n").filter { $0.count > 100 }
      #expect(long.isEmpty, "\(long)")
      // `#expect` takes a Comment, which a String joined by `+` is not.
      #expect(
        source.contains(
          """
                  Comment(
                    rawValue: "\(name) "
                      + "#2, after the start, at 0 ms"))
          """) == (framework == .swiftTesting))
    }
  }

  @Test func aTraceOfOneReactorOrAnUnknownAppIsRefused() throws {
    let counter = GeneratedFiles.root + "/Traces/counter.trace.jsonl"
    let factory = ReactorRegistry.examples.sessionTestFactory(for: "TaskApp", metadata: [:])
    #expect(
      throws: TestGenerationError.differentSubjects(
        expected: .app("TaskApp"), found: .reactor("ReactorExamples.CounterReactor"),
        path: counter)
    ) {
      try TestGenerator().source(forSessions: [Self.session, counter]) { _, _ in factory }
    }
    #expect(throws: TestGenerationError.noSessionFactory(app: "TaskApp")) {
      try TestGenerator().source(forSessions: [Self.session]) { _, _ in nil }
    }
    #expect(
      TestGenerationError.noSessionFactory(app: "TaskApp").description
        == "no session factory is registered for app 'TaskApp' with a test spelling: register "
        + "it with registerSession(app:including:test:make:)")
  }
}
