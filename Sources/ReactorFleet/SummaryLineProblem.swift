/// What is wrong with one summary line.
public struct SummaryLineProblem: Error, Sendable, Hashable, CustomStringConvertible {
  /// The reason, such as `no 'count'`.
  public var description: String

  /// Creates a problem.
  public init(_ description: String) { self.description = description }
}
