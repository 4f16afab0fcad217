public import ReactorTracing

/// What a generated test looks like and what it checks.
public struct TestGenerationOptions: Sendable, Hashable {
  /// The test framework.
  public enum Framework: Sendable, Hashable {
    /// Swift Testing: `@Suite`, `@Test`, `#expect`.
    case swiftTesting
    /// XCTest: an `XCTestCase` subclass with `XCTAssertEqual`.
    case xctest
  }

  /// Which fields the test checks.
  public enum Expectations: Sendable, Hashable {
    /// Every field that changed, before each action and at the end.
    case exhaustive
    /// Every field of the final state, once, at the end.
    case finalState
    /// Only fields at or under these paths, wherever they changed.
    case keys([StatePath])
  }

  /// The test framework.
  public var framework: Framework
  /// Which fields the test checks.
  public var expectations: Expectations
  /// The suite's (or test case class's) name.
  public var suiteName: String
  /// The function that runs a test body on the main serial executor:
  /// `withMainSerialExecutor` from ConcurrencyExtras, or a wrapper of it.
  public var serialExecutor: String
  /// Further modules to import.
  public var imports: [String]
  /// Swift Testing traits for every test, such as `.disabled("…")`; ignored by XCTest.
  public var traits: [String]

  /// Options; by default a Swift Testing suite with exhaustive expectations.
  public init(
    framework: Framework = .swiftTesting, expectations: Expectations = .exhaustive,
    suiteName: String = "RecordedTraceTests", serialExecutor: String = "withMainSerialExecutor",
    imports: [String] = [], traits: [String] = []
  ) {
    self.framework = framework
    self.expectations = expectations
    self.suiteName = suiteName
    self.serialExecutor = serialExecutor
    self.imports = imports
    self.traits = traits
  }
}
