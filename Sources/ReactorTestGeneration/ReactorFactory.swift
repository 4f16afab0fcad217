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
}
