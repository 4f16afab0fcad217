/// Why a piece of JSON is not a valid part of a trace: a missing field, a wrong type, a value
/// out of range.
///
/// Readers wrap it with the line it came from (``TraceReadError/malformedLine(path:line:reason:)``).
public struct TraceFormatError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong, as one phrase: `missing field 'seq'`.
  public var description: String

  /// An error with this explanation.
  public init(_ description: String) { self.description = description }
}
