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
  }

  /// The repository's root, found from this file's path.
  static let root = String(
    #filePath.dropLast("/Tests/ReactorTestGenerationTests/GeneratedFiles.swift".count))

  /// A test per trace of `Traces/` in `Tests/GeneratedTraceTests` (and the TaskList's as
  /// XCTest too), the ItemList fixture's (an Optional payload sent as nil), the Bookmarks
  /// fixture's (URLs), the LikeButton fixture's (mutations through its own stream), and the
  /// Counter's test against the broken copy here.
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
    files.append(
      File(
        path: "Tests/ReactorTestGenerationTests/BrokenCounterTraceTests.swift",
        trace: "Traces/counter.trace.jsonl",
        options: TestGenerationOptions(
          suiteName: "BrokenCounterTraceTests",
          serialExecutor: "withExclusiveMainSerialExecutor", imports: ["ReactorTestSupport"],
          traits: [#".disabled("run by BrokenReduceTests, which expects it to fail")"#]),
        factory: ReactorFactory(expression: "BrokenCounterReactor(clock: clock, limit: 2)")))
    return files
  }

  /// The text the generator writes for `file` now.
  static func generate(_ file: File) throws -> String {
    try TestGenerator(options: file.options).source(for: [root + "/" + file.trace]) {
      reactor, metadata in
      file.factory ?? ReactorRegistry.examples.testFactory(for: reactor, metadata: metadata)
    }
  }
}
