public import ReactorFleet

/// Why two sets of runs could not be compared.
public enum ComparisonError: Error, Sendable, Hashable {
  /// Summaries or traces could not be read or summarized.
  case fleet(FleetError)
  /// A reactor's states were abstracted differently on the two sides (or within one), so
  /// its transitions do not line up.
  case abstractions(reactor: String, before: [String], after: [String])
  /// A side holds nothing to compare: its label and why.
  case emptySide(String, reason: String)
  /// A metadata condition is not `KEY=VALUE`.
  case malformedCondition(String)
  /// A line of the set matches both `--before` and `--after`.
  case overlappingSides(String)
  /// A count overflows a 64-bit integer when added up on one side.
  case overflow(side: String)
}

extension ComparisonError: CustomStringConvertible {
  /// One line saying what went wrong.
  public var description: String {
    switch self {
    case .fleet(let error):
      error.description
    case .abstractions(let reactor, let before, let after):
      "the states of \(reactor) are abstracted differently (before: "
        + before.joined(separator: " | ") + "; after: " + after.joined(separator: " | ")
        + "); summarize both sides with one --abstraction file"
    case .emptySide(let side, let reason):
      "nothing to compare on the \(side) side: \(reason)"
    case .malformedCondition(let text):
      "'\(text)' is not a metadata condition KEY=VALUE (such as appVersion=3.2.0)"
    case .overlappingSides(let line):
      "a line matches both --before and --after: \(line)"
    case .overflow(let side):
      "a count on the \(side) side overflows a 64-bit integer when added up"
    }
  }
}
