import Foundation
import ReactorExampleRegistry
import ReactorTestGeneration
import ReactorTracing
import Testing

@testable import ReactorTraceCLI

@Suite struct GeneratedFileTests {
  /// Set to rewrite the committed files from the traces, on purpose.
  private static let isRegenerating =
    ProcessInfo.processInfo.environment["REACTOR_TRACE_REGENERATE_TESTS"] != nil

  @Test(arguments: GeneratedFiles.all.map(\.path))
  func theCommittedGeneratedTestIsWhatTheGeneratorWritesNow(path: String) throws {
    let file = try #require(GeneratedFiles.all.first { $0.path == path })
    let source = try GeneratedFiles.generate(file)
    let location = GeneratedFiles.root + "/" + file.path
    if Self.isRegenerating {
      try source.write(toFile: location, atomically: true, encoding: .utf8)
      return
    }
    let committed = try String(contentsOfFile: location, encoding: .utf8)
    #expect(
      committed == source,
      """
      \(file.path) differs from what generate-test writes for \(file.trace) now; \
      regenerate with REACTOR_TRACE_REGENERATE_TESTS=1 swift test --filter GeneratedFileTests
      """)
  }

  @Test func finalStateAndKeysLimitTheChecks() throws {
    let trace = GeneratedFiles.root + "/Traces/counter.trace.jsonl"
    let final = try TestGenerator(options: TestGenerationOptions(expectations: .finalState))
      .source(for: [trace]) { ReactorRegistry.examples.testFactory(for: $0, metadata: $1) }
    #expect(final.components(separatedBy: "#expect(").count - 1 == 4)
    #expect(
      final.contains(
        #"#expect(field("value") == "1", "after decrease (action 4), at the end (1500 ms)")"#))
    let keys = try TestGenerator(options: TestGenerationOptions(expectations: .keys(["value"])))
      .source(for: [trace]) { ReactorRegistry.examples.testFactory(for: $0, metadata: $1) }
    #expect(!keys.contains(#"field("isLoading")"#))
    #expect(keys.components(separatedBy: "#expect(").count - 1 == 3)
  }

  @Test func xctestOutputIsATestCaseWithAssertions() throws {
    let trace = GeneratedFiles.root + "/Traces/counter.trace.jsonl"
    let source = try TestGenerator(
      options: TestGenerationOptions(framework: .xctest, suiteName: "CounterTraceTests")
    ).source(for: [trace]) { ReactorRegistry.examples.testFactory(for: $0, metadata: $1) }
    #expect(source.contains("final class CounterTraceTests: XCTestCase {"))
    #expect(source.contains("func testCounter() async throws {"))
    #expect(
      source.contains(
        #"XCTAssertEqual(field("value"), "1", "after increase (action 1), at 500 ms")"#))
    #expect(source.contains("import XCTest"))
    #expect(!source.contains("import Testing"))
  }

  @Test func aReactorWithoutAKnownFactoryNeedsOne() {
    let trace = GeneratedFiles.root + "/Traces/counter.trace.jsonl"
    #expect(throws: TestGenerationError.noFactory(reactor: "ReactorExamples.CounterReactor")) {
      try TestGenerator().source(for: [trace]) { _, _ in nil }
    }
  }
}
