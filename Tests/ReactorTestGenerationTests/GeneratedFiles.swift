import ReactorExampleRegistry
import ReactorTestGeneration

@testable import ReactorTraceCLI

/// The generated test files committed in this package, and how each is generated.
enum GeneratedFiles {
  /// One committed file: where it is, from which trace, with which factory and options.
  struct File {
    var path: String
    var trace: String
    var options: TestGenerationOptions
    var factory: ReactorFactory?
    /// For a session: the session factory, when not the one registered for its app.
    var sessionFactory: SessionFactory? = nil

    /// Whether the file is generated from a session.
    var isSession: Bool { trace.hasSuffix(".session.jsonl") }
  }

  /// The repository's root, found from this file's path.
  static let root = String(
    #filePath.dropLast("/Tests/ReactorTestGenerationTests/GeneratedFiles.swift".count))

  /// A test per trace of `Traces/` in `Tests/GeneratedTraceTests` (and the TaskList's as
  /// XCTest too), the ItemList fixture's (an Optional payload sent as nil), the Bookmarks
  /// fixture's (URLs), the LikeButton fixture's (mutations through its own stream), the
  /// Counter's and the task app's with a jump, and the Counter's test against the broken copy
  /// here.
  static var all: [File] {
    let traces = [
      ("counter", "Counter"), ("github-search", "GithubSearch"), ("profile", "Profile"),
      ("tasklist", "Tasklist"),
    ]
    var files = traces.map { trace, suite in
      File(
        path: "Tests/GeneratedTraceTests/\(suite)TraceTests.swift",
        trace: "Traces/\(trace).trace.jsonl",
        options: TestGenerationOptions(
          suiteName: "\(suite)TraceTests", serialExecutor: "withExclusiveMainSerialExecutor",
          imports: ["ReactorTestSupport"]),
        factory: nil)
    }
    files.append(
      File(
        path: "Tests/GeneratedTraceTests/TasklistXCTests.swift",
        trace: "Traces/tasklist.trace.jsonl",
        options: TestGenerationOptions(
          framework: .xctest, suiteName: "TasklistXCTests",
          serialExecutor: "withExclusiveMainSerialExecutor", imports: ["ReactorTestSupport"]),
        factory: nil))
    // An action whose Optional payload was sent as nil, recorded as {"setFilter": {}}.
    files.append(
      File(
        path: "Tests/GeneratedTraceTests/ItemlistTraceTests.swift",
        trace: "Tests/Fixtures/itemlist.trace.jsonl",
        options: TestGenerationOptions(
          suiteName: "ItemlistTraceTests", serialExecutor: "withExclusiveMainSerialExecutor",
          imports: ["ReactorTestSupport"]),
        factory: nil))
    // URLs in actions and states, recorded as strings and decoded back.
    files.append(
      File(
        path: "Tests/GeneratedTraceTests/BookmarksTraceTests.swift",
        trace: "Tests/Fixtures/bookmarks.trace.jsonl",
        options: TestGenerationOptions(
          suiteName: "BookmarksTraceTests", serialExecutor: "withExclusiveMainSerialExecutor",
          imports: ["ReactorTestSupport"]),
        factory: nil))
    // A like button whose mutations come back through the stream its own effect published
    // to (credited to the action), then one a scripted event published.
    files.append(
      File(
        path: "Tests/GeneratedTraceTests/LikebuttonTraceTests.swift",
        trace: "Tests/Fixtures/likebutton.trace.jsonl",
        options: TestGenerationOptions(
          suiteName: "LikebuttonTraceTests", serialExecutor: "withExclusiveMainSerialExecutor",
          imports: ["ReactorTestSupport"]),
        factory: nil))
    // A jump sent from outside the app to the state after event 5 (issue 43), performed as
    // the runtime performs it, then an increase from there.
    files.append(
      File(
        path: "Tests/GeneratedTraceTests/CounterJumpTraceTests.swift",
        trace: "Tests/Fixtures/counter-jump.trace.jsonl",
        options: TestGenerationOptions(
          suiteName: "CounterJumpTraceTests", serialExecutor: "withExclusiveMainSerialExecutor",
          imports: ["ReactorTestSupport"]),
        factory: nil))
    files.append(
      File(
        path: "Tests/ReactorTestGenerationTests/BrokenCounterTraceTests.swift",
        trace: "Traces/counter.trace.jsonl",
        options: TestGenerationOptions(
          suiteName: "BrokenCounterTraceTests",
          serialExecutor: "withExclusiveMainSerialExecutor", imports: ["ReactorTestSupport"],
          traits: [#".disabled("run by BrokenReduceTests, which expects it to fail")"#]),
        factory: ReactorFactory(expression: "BrokenCounterReactor(clock: clock, limit: 2)")))
    // Events handed to the fakes before any action: the generated test starts the pipeline
    // first, as `record` and mutate replay do, so the list receives them.
    files.append(
      File(
        path: "Tests/GeneratedTraceTests/TasklistEventsFirstTraceTests.swift",
        trace: "Tests/Fixtures/tasklist-events-first.trace.jsonl",
        options: TestGenerationOptions(
          suiteName: "TasklistEventsFirstTraceTests",
          serialExecutor: "withExclusiveMainSerialExecutor", imports: ["ReactorTestSupport"]),
        factory: nil))
    // The same run against a list built on another service than the one the events reach.
    files.append(
      File(
        path: "Tests/ReactorTestGenerationTests/MiswiredTasklistTraceTests.swift",
        trace: "Tests/Fixtures/tasklist-events-first.trace.jsonl",
        options: TestGenerationOptions(
          suiteName: "MiswiredTasklistTraceTests",
          serialExecutor: "withExclusiveMainSerialExecutor", imports: ["ReactorTestSupport"],
          traits: [#".disabled("run by BrokenReduceTests, which expects it to fail")"#]),
        factory: ReactorFactory(
          setup: [
            "let service = TaskService(clock: clock, latency: .milliseconds(100))",
            "let reactor = TaskListReactor(service: TaskService(clock: clock))",
          ], deliver: "service.apply", imports: ["ReactorExamples"])))
    // The task app's session: the whole app built through its registered session factory.
    files.append(
      File(
        path: "Tests/GeneratedTraceTests/TaskappSessionTests.swift",
        trace: "Traces/taskapp.session.jsonl",
        options: TestGenerationOptions(
          suiteName: "TaskappSessionTests", serialExecutor: "withExclusiveMainSerialExecutor",
          imports: ["ReactorTestSupport"]),
        factory: nil))
    // The start of the same session, up to a title typed in the edit screen, then a jump of
    // the edit screen from the page back to the state before it (issue 43), performed
    // through the recorder as a live recording performs it.
    files.append(
      File(
        path: "Tests/GeneratedTraceTests/TaskappJumpSessionTests.swift",
        trace: "Tests/Fixtures/taskapp-jump.session.jsonl",
        options: TestGenerationOptions(
          suiteName: "TaskappJumpSessionTests",
          serialExecutor: "withExclusiveMainSerialExecutor", imports: ["ReactorTestSupport"]),
        factory: nil))
    // The same session against an app whose edit screen publishes the wrong id.
    files.append(
      File(
        path: "Tests/ReactorTestGenerationTests/WrongIDTaskappSessionTests.swift",
        trace: "Traces/taskapp.session.jsonl",
        options: TestGenerationOptions(
          suiteName: "WrongIDTaskappSessionTests",
          serialExecutor: "withExclusiveMainSerialExecutor", imports: ["ReactorTestSupport"],
          traits: [#".disabled("run by SessionBugTests, which expects it to fail")"#]),
        factory: nil, sessionFactory: wrongIDTaskApp))
    return files
  }

  /// The task app's registered session factory, its edit screen publishing each saved
  /// task's id plus one (``ReactorExamples/TaskApp/init(clock:editIDOffset:)``).
  static var wrongIDTaskApp: SessionFactory {
    var factory = ReactorRegistry.examples.sessionTestFactory(
      for: "TaskApp", metadata: ["app": "TaskApp"])!
    factory.setup[0] = "let app = TaskApp(clock: clock, editIDOffset: 1)"
    return factory
  }

  /// The text the generator writes for `file` now.
  static func generate(_ file: File) throws -> String {
    if file.isSession {
      return try TestGenerator(options: file.options).source(
        forSessions: [root + "/" + file.trace]
      ) { app, metadata in
        file.sessionFactory
          ?? ReactorRegistry.examples.sessionTestFactory(for: app, metadata: metadata)
      }
    }
    return try TestGenerator(options: file.options).source(for: [root + "/" + file.trace]) {
      reactor, metadata in
      file.factory ?? ReactorRegistry.examples.testFactory(for: reactor, metadata: metadata)
    }
  }
}
