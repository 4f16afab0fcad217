/// How a generated test builds its reactor: Swift statements that declare `reactor` on a
/// `TestClock` named `clock`, and how scripted events reach the reactor's fakes.
///
/// ```swift
/// let factory = ReactorFactory(expression: "CounterReactor(clock: clock, limit: 2)")
/// let custom = ReactorFactory(expression: "makeProfileReactor")  // makeProfileReactor(clock: clock)
/// ```
public struct ReactorFactory: Sendable, Hashable {
  /// Statements that declare `let reactor` (and whatever `deliver` needs), one per element.
  public var setup: [String]
  /// A function expression that takes a scripted event, such as `service.apply`; `nil` when
  /// the reactor takes no events.
  public var deliver: String?
  /// The modules the statements need, besides the test framework's.
  public var imports: [String]

  /// A factory from its statements.
  public init(setup: [String], deliver: String? = nil, imports: [String] = []) {
    self.setup = setup
    self.deliver = deliver
    self.imports = imports
  }

  /// A factory from an expression that makes the reactor, or the name of a function that
  /// does given the clock (`makeReactor` stands for `makeReactor(clock: clock)`).
  public init(expression: String, deliver: String? = nil, imports: [String] = []) {
    let isName = expression.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
    self.init(
      setup: ["let reactor = " + (isName ? expression + "(clock: clock)" : expression)],
      deliver: deliver, imports: imports)
  }

  /// The factory of one of the registered examples, configured from the trace's metadata
  /// as the shipped `reactor-trace` builds it; `nil` for other reactors.
  /// - Parameters:
  ///   - reactor: The trace's reactor type name.
  ///   - metadata: The trace header's metadata.
  /// - Returns: The factory, or `nil` for a reactor that is not one of the examples.
  public static func example(
    _ reactor: String, metadata: [String: String]
  ) -> ReactorFactory? {
    func integer(_ key: String) -> Int? {
      metadata[key].flatMap { Int(String($0.filter { !$0.isWhitespace })) }
    }
    let imports = ["ReactorExamples"]
    switch reactor {
    case "ReactorExamples.CounterReactor":
      return ReactorFactory(
        expression: "CounterReactor(clock: clock, limit: \(integer("limit") ?? 10))",
        imports: imports)
    case "ReactorExamples.ProfileReactor":
      let failing = (metadata["failingRequests"] ?? "").split(separator: ",")
        .compactMap { Int(String($0.filter { !$0.isWhitespace })) }.sorted()
      return ReactorFactory(
        setup: [
          "let api = FakeUserAPI(",
          "  clock: clock, latency: .milliseconds(\(integer("latency") ?? 300)), "
            + "failing: [\(failing.map(String.init).joined(separator: ", "))])",
          "let reactor = ProfileReactor(api: api)",
        ], imports: imports)
    case "ReactorExamples.TaskListReactor":
      return ReactorFactory(
        setup: [
          "let service = TaskService(clock: clock, latency: "
            + ".milliseconds(\(integer("latency") ?? 100)))",
          "let reactor = TaskListReactor(service: service)",
        ], deliver: "service.apply", imports: imports)
    case "ReactorExamples.GitHubSearchReactor":
      return ReactorFactory(
        setup: [
          "let service = FakeGitHubSearchService(",
          "  clock: clock, latency: .milliseconds(\(integer("latency") ?? 300)))",
          "let reactor = GitHubSearchReactor(service: service)",
        ], imports: imports)
    default:
      return nil
    }
  }
}
