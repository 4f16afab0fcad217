import Foundation
import ReactorExampleRegistry
import ReactorTestGeneration
import Testing

@testable import ReactorTraceCLI

/// Traces and sessions go through one path: what a recording's test builds is its subject,
/// one rule over the recording.
@Suite struct TestSubjectTests {
  private static let counter = GeneratedFiles.root + "/Traces/counter.trace.jsonl"
  private static let session = GeneratedFiles.root + "/Traces/taskapp.session.jsonl"

  /// The task app's session cut down to its edit screen, naming no app, in a scratch file.
  private static func editScreenAlone() throws -> String {
    let lines = try String(contentsOfFile: session, encoding: .utf8).split(separator: "\n")
    var kept = [lines[0].replacingOccurrences(of: #"{"app":"TaskApp"}"#, with: "{}")]
    kept += lines.dropFirst().map(String.init).filter {
      $0.contains(#""reactor":2,"#) || $0.contains(#""kind":"end""#)
    }
    let path = NSTemporaryDirectory() + "reactor-trace-edit-\(getpid()).session.jsonl"
    try (kept.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func aTraceDrivesItsReactorAloneAndASessionItsApp() throws {
    #expect(try TestSubject(path: Self.counter) == .reactor("ReactorExamples.CounterReactor"))
    #expect(try TestSubject(path: Self.counter).suiteSuffix == "TraceTests")
    #expect(try TestSubject(path: Self.session) == .app("TaskApp"))
    #expect(try TestSubject(path: Self.session).suiteSuffix == "SessionTests")
  }

  @Test func aSessionOfOneReactorNamingNoAppDrivesThatReactorAlone() throws {
    let path = try Self.editScreenAlone()
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try TestSubject(path: path) == .reactor("ReactorExamples.TaskEditReactor"))
    let source = try TestGenerator().source(of: [path]) { subject, _ in
      .reactor(ReactorFactory(expression: "TaskEditReactor(clock: clock)"))
    }
    #expect(source.contains("let reactor = TaskEditReactor(clock: clock)"))
    #expect(source.contains(#"reactor.send(.setTitle("Buy milk"))"#))
    #expect(source.contains(##"field("title") == #""Buy milk""#"##))
    #expect(!source.contains("recorder"))
  }

  @Test func theConveniencesWriteWhatTheOnePathWrites() throws {
    let registry = ReactorRegistry.examples
    let trace = try TestGenerator().source(for: [Self.counter]) { reactor, metadata in
      registry.testFactory(for: reactor, metadata: metadata)
    }
    let session = try TestGenerator().source(forSessions: [Self.session]) { app, metadata in
      registry.sessionTestFactory(for: app, metadata: metadata)
    }
    for (path, source) in [(Self.counter, trace), (Self.session, session)] {
      #expect(
        try TestGenerator().source(of: [path]) { subject, metadata in
          registry.testFactory(for: subject, metadata: metadata)
        } == source)
    }
  }

  @Test func aFactoryForAnotherSubjectOrAMixOfSubjectsIsRefused() throws {
    let counterFactory = TestFactory.reactor(ReactorFactory(expression: "makeCounter"))
    #expect(throws: TestGenerationError.unusableFactory(subject: .app("TaskApp"))) {
      try TestGenerator().source(of: [Self.session]) { _, _ in counterFactory }
    }
    #expect(
      TestGenerationError.unusableFactory(subject: .app("TaskApp")).description
        .hasPrefix("--factory builds one reactor"))
    let appFactory = TestFactory.app(SessionFactory(setup: ["let app = makeApp(clock: clock)"]))
    #expect(
      throws: TestGenerationError.unusableFactory(
        subject: .reactor("ReactorExamples.CounterReactor"))
    ) {
      try TestGenerator().source(of: [Self.counter]) { _, _ in appFactory }
    }
    let mixed = TestGenerationError.differentSubjects(
      expected: .reactor("ReactorExamples.CounterReactor"), found: .app("TaskApp"),
      path: Self.session)
    #expect(throws: mixed) {
      try TestGenerator().source(of: [Self.counter, Self.session]) { _, _ in counterFactory }
    }
    #expect(mixed.description.hasSuffix("generate its test in another file"))
  }
}
