/// A coding key the probing containers make for coding paths: `super` and unkeyed indices.
struct ProbeCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  init(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }

  /// The key of `superDecoder()`.
  static let superKey = ProbeCodingKey(stringValue: "super")
}
