/// Why a ``ReactorAddress`` cannot be read, or reaches no live reactor.
public struct ReactorAddressError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The address as written.
  public var text: String
  /// What is wrong, such as `no live reactor is named 'lsit'; named: edit, list`.
  public var reason: String
  /// Whether the text is not an address at all (else it is one that reaches no reactor).
  public var isMalformed: Bool

  /// An error about `text`.
  public init(text: String, reason: String, isMalformed: Bool = false) {
    self.text = text
    self.reason = reason
    self.isMalformed = isMalformed
  }

  /// `'list/cells.9' reaches no reactor: …`, or `'list/' is not a reactor address: …`.
  public var description: String {
    "'\(text)' " + (isMalformed ? "is not a reactor address" : "reaches no reactor")
      + ": \(reason)"
  }
}
