/// The values one attempt at a type's `init(from:)` gets for the strings and integers it
/// decodes itself.
///
/// Initializers that validate (`UUID`, `URL`, dates, raw-value enums) reject the first
/// candidates; the probe retries with the next ones.
struct ProbeCandidate {
  /// The value of every `String` the attempt decodes.
  var string: String
  /// The value of every integer the attempt decodes, truncated to the integer's type.
  var integer: Int

  /// The candidates for a type that is not an enum, in the order they are tried.
  static let fallbacks: [ProbeCandidate] = [
    ProbeCandidate(string: "", integer: 0),
    ProbeCandidate(string: "a", integer: 1),
    ProbeCandidate(string: "00000000-0000-0000-0000-000000000000", integer: 0),
    ProbeCandidate(string: "1970-01-01T00:00:00Z", integer: 0),
    ProbeCandidate(string: "https://example.com", integer: 0),
  ]
}
